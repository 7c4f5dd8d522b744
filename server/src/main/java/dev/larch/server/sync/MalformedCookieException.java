package dev.larch.server.sync;

/** A sync cookie that is not in slapd's grammar; the message says what is wrong and is safe to send back. */
public final class MalformedCookieException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public MalformedCookieException(String message) {
        super(message);
    }
}
