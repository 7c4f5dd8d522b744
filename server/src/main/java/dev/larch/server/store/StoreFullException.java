package dev.larch.server.store;

import java.nio.file.Path;

/**
 * A write did not fit: either the LMDB map reached {@code storage.map-size} or the disk holding the
 * data directory ran out of space. The transaction was aborted, so nothing of the write was applied
 * and the store is as it was before it; reads and later writes that fit go on working.
 */
public final class StoreFullException extends StoreException {
    /** What ran out. */
    public enum Exhausted {
        /** The map reached {@code storage.map-size}; raising it takes effect at the next start. */
        MAP,
        /** The file system holding the data directory has no space left (ENOSPC). */
        DISK
    }

    private final Exhausted exhausted;

    private StoreFullException(Exhausted exhausted, String message, Throwable lmdbFailure) {
        super(message, lmdbFailure);
        this.exhausted = exhausted;
    }

    static StoreFullException mapFull(long mapSizeBytes, Throwable lmdbFailure) {
        return new StoreFullException(
                Exhausted.MAP,
                "the data file reached storage.map-size (" + mapSizeBytes
                        + " bytes); the write was rolled back. Raise storage.map-size and restart",
                lmdbFailure);
    }

    static StoreFullException diskFull(Path directory, Throwable lmdbFailure) {
        return new StoreFullException(
                Exhausted.DISK,
                "no space left on the disk holding " + directory + "; the write was rolled back",
                lmdbFailure);
    }

    public Exhausted exhausted() {
        return exhausted;
    }

    /** The diagnostic message a client gets: what ran out and what the operator can do. */
    public String clientMessage() {
        return switch (exhausted) {
            case MAP -> "store is full: raise storage.map-size";
            case DISK -> "disk is full: the server has no space left for its data";
        };
    }
}
