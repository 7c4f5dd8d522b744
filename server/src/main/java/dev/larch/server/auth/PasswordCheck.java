package dev.larch.server.auth;

/** The outcome of checking a presented password against one stored value. */
public enum PasswordCheck {
    /** The password matches. */
    MATCH,
    /** It does not match, or the stored value is malformed or of an unknown scheme. */
    MISMATCH,
    /**
     * The stored hash asks for more iterations than the configured bound, so it was not computed.
     * The bind fails as for a mismatch; the operator should re-hash the value.
     */
    TOO_COSTLY
}
