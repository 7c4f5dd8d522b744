package dev.larch.server.store;

/**
 * Every LMDB reader slot ({@code storage.max-readers}) is held by an open read transaction, so no
 * new one can begin; it passes once readers close. Callers outside the store see this instead of
 * lmdbjava's own exception, so that only the store knows LMDB.
 */
public final class ReadersFullException extends StoreException {
    ReadersFullException(Throwable lmdbFailure) {
        super("all LMDB read slots are in use; raise storage.max-readers", lmdbFailure);
    }
}
