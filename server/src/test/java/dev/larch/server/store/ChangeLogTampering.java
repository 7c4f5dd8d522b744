package dev.larch.server.store;

/**
 * Writes to the change log that the store's API refuses to make, as a bug or a bad disk would: for
 * tests of the offline verifier, which must find them.
 */
public final class ChangeLogTampering {
    private ChangeLogTampering() {}

    /** Records {@code change} without raising the contextCSN of its server ID. */
    public static void appendOnly(WriteTxn txn, LoggedChange change) {
        txn.store.changeLog().append(txn, change);
    }
}
