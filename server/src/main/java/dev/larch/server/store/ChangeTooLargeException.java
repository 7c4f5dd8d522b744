package dev.larch.server.store;

/**
 * One write touched more pages than a single LMDB transaction can hold (MDB_TXN_FULL, about 131,000
 * dirty pages): a rename of a very large subtree, for example. The transaction was aborted, so the
 * store is as it was before the write; smaller writes go on working.
 */
public final class ChangeTooLargeException extends StoreException {
    ChangeTooLargeException(Throwable lmdbFailure) {
        super("the write changes more pages than one LMDB transaction can hold; it was rolled back", lmdbFailure);
    }

    /** The diagnostic message a client gets. */
    public String clientMessage() {
        return "the change is too large for one transaction; split it into smaller changes";
    }
}
