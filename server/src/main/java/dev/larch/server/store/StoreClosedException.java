package dev.larch.server.store;

/** The store is shutting down and admits no new transactions. */
public final class StoreClosedException extends StoreException {
    StoreClosedException() {
        super("the store is closing");
    }
}
