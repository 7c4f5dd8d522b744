package dev.larch.schema;

/**
 * The schema cannot be built. The message is one line naming the file (for a user schema file) and
 * the problem, fit to show the user as it is.
 */
public final class SchemaLoadException extends Exception {
    private static final long serialVersionUID = 1L;

    /** @param message the one-line, user-facing description; never null */
    public SchemaLoadException(String message) {
        super(message);
    }

    /**
     * @param message the one-line, user-facing description; never null
     * @param cause the underlying failure, kept for logs
     */
    public SchemaLoadException(String message, Throwable cause) {
        super(message, cause);
    }
}
