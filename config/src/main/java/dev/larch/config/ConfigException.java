package dev.larch.config;

/**
 * A configuration file that cannot be used. The message is one line that names the file and, where
 * there is one, the key or line at fault, for example
 * {@code larch.conf: listen.port: expected an integer 0..65535, got 'abc'}; it is meant to be shown
 * to the user as it is, without a stack trace.
 */
public final class ConfigException extends Exception {
    private static final long serialVersionUID = 1L;

    /** @param message the one-line, user-facing description; never null */
    public ConfigException(String message) {
        super(message);
    }

    /**
     * @param message the one-line, user-facing description; never null
     * @param cause the underlying failure, kept for logs
     */
    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
