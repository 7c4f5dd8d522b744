package dev.larch.bench.mix;

/** A mix file that cannot be run; the message names the file and what to fix. */
public final class InvalidMixException extends IllegalArgumentException {
    public InvalidMixException(String message) {
        super(message);
    }
}
