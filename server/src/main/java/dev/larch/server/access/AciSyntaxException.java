package dev.larch.server.access;

/**
 * An {@code aci} value that does not parse or names something the schema does not know. The message
 * says where (a 1-based character position) and what was expected, for example
 * {@code at 42: expected ';' after the ACL name, found 'allow'}.
 */
public final class AciSyntaxException extends Exception {
    private static final long serialVersionUID = 1L;

    private final int position;

    AciSyntaxException(int position, String problem) {
        super("at " + position + ": " + problem);
        this.position = position;
    }

    /** The 1-based character position of the problem. */
    public int position() {
        return position;
    }
}
