package dev.larch.server.replica;

/**
 * A provider sent what a sync session cannot act on (an entry without a Sync State control, a cookie of
 * another replica, a malformed PDU...). An expected failure: the session logs its one-line message, closes
 * the connection and retries; no stack trace is worth printing.
 */
final class ProviderProtocolException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ProviderProtocolException(String message) {
        super(message, null, false, false);
    }
}
