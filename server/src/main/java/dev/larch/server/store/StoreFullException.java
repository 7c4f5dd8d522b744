package dev.larch.server.store;

import java.nio.file.Path;

/**
 * A write did not fit: either the LMDB map reached {@code storage.map-size} or the disk holding the
 * data directory ran out of space. The transaction was aborted, so nothing of the write was applied
 * and the store is as it was before it; reads and later writes that fit go on working.
 */
public final class StoreFullException extends StoreException {
    /** What ran out. */
    public enum Cause {
        /** The map reached {@code storage.map-size}; raising it takes effect at the next start. */
        MAP,
        /** The file system holding the data directory has no space left (ENOSPC). */
        DISK
    }

    private final Cause cause;

    private StoreFullException(Cause cause, String message, Throwable lmdbFailure) {
        super(message, lmdbFailure);
        this.cause = cause;
    }

    static StoreFullException mapFull(long mapSizeBytes, Throwable lmdbFailure) {
        return new StoreFullException(
                Cause.MAP,
                "the data file reached storage.map-size (" + mapSizeBytes
                        + " bytes); the write was rolled back. Raise storage.map-size and restart",
                lmdbFailure);
    }

    static StoreFullException diskFull(Path directory, Throwable lmdbFailure) {
        return new StoreFullException(
                Cause.DISK,
                "no space left on the disk holding " + directory + "; the write was rolled back",
                lmdbFailure);
    }

    public Cause fullCause() {
        return cause;
    }

    /** The diagnostic message a client gets: what ran out and what the operator can do. */
    public String clientMessage() {
        return switch (cause) {
            case MAP -> "store is full: raise storage.map-size";
            case DISK -> "disk is full: the server has no space left for its data";
        };
    }
}
