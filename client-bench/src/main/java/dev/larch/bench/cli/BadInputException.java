package dev.larch.bench.cli;

/**
 * Bad input the user can fix (a missing file, an unreachable server, a malformed mix). The
 * command prints only its message, with no stack trace, and exits with {@link BenchMain#EXIT_BAD_INPUT}.
 */
public class BadInputException extends RuntimeException {
    public BadInputException(String message) {
        super(message);
    }

    public BadInputException(String message, Throwable cause) {
        super(message, cause);
    }
}
