package dev.larch.server.bulk;

import java.io.IOException;

/**
 * Reads (key, ID) records in ascending order: by key, unsigned byte by byte with a proper prefix
 * first (LMDB's default key order), then by ID. Not thread-safe.
 */
interface KeyIdCursor extends AutoCloseable {
    /** Moves to the next record; false at the end. */
    boolean next() throws IOException;

    /** The current record's key bytes: {@link #keyLength()} bytes from {@link #keyOffset()}. */
    byte[] keyArray();

    int keyOffset();

    int keyLength();

    /** The current record's ID. */
    long id();

    @Override
    void close() throws IOException;
}
