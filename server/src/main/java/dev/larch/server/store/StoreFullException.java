package dev.larch.server.store;

/** The LMDB map is full; the write was not applied. Raise {@code storage.map-size}. */
public final class StoreFullException extends StoreException {
    StoreFullException(Throwable cause) {
        super("the data file reached storage.map-size; raise it in the config", cause);
    }
}
