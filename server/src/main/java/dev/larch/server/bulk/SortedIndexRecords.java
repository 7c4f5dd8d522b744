package dev.larch.server.bulk;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The external sort of the bulk load ({@link SortedRuns}) for other users of index records: (key,
 * ID) records of indexes numbered 0 to n-1 are collected in memory up to a bound, spilled as sorted
 * runs beyond it, and handed back per index sorted by key then ID, each distinct pair once. Several
 * instances, filled by several threads, are merged together ({@link #drain}), so each thread sorts
 * what it produced without a lock.
 *
 * <p>Keys are given as stored ({@link dev.larch.server.store.IndexKeys#storedForm}). Memory and
 * files as {@link SortedRuns} says: near the bound given, run files in a directory of their own
 * under the directory given, removed by {@link #close()}.
 *
 * <p>Not thread-safe: one thread fills an instance; {@link #drain} may then run for different
 * indexes on different threads once every filler is done.
 */
public final class SortedIndexRecords implements AutoCloseable {
    /** Receives one index's merged records in order. */
    public interface Sink {
        /** @param key the record's key, {@code keyLength} bytes from 0, valid only during the call */
        void accept(byte[] key, int keyLength, long id) throws IOException;
    }

    private final SortedRuns runs;

    /**
     * @param indexes how many indexes records are collected for
     * @param memoryBound bytes of buffers beyond which they are spilled to run files
     * @param tempParent where the run files' directory is created, when one is needed
     * @param tempPrefix how that directory's name begins ({@code verify-runs-}), to tell whose it is
     */
    public SortedIndexRecords(int indexes, long memoryBound, Path tempParent, String tempPrefix) {
        this.runs = new SortedRuns(indexes, memoryBound, tempParent, tempPrefix);
    }

    /** Adds a record of index {@code index}; may spill every buffer to disk first. */
    public void add(int index, byte[] storedKey, long id) throws IOException {
        runs.add(index, storedKey, id);
    }

    /** How many times this instance's buffers were written out to run files. */
    public int spills() {
        return runs.spills();
    }

    /**
     * Feeds index {@code index}'s records from every part, merged, sorted and distinct, to {@code
     * sink}, then frees their memory and run files for that index. Call once per index, after every
     * part was filled; calls for different indexes may run at once on different threads.
     *
     * @return how many records the sink received
     */
    public static long drain(List<SortedIndexRecords> parts, int index, Sink sink) throws IOException {
        List<KeyIdCursor> sources = new ArrayList<>();
        long n;
        try {
            for (SortedIndexRecords part : parts) {
                sources.addAll(part.sortedOf(index));
            }
            try (MergedRuns merged = new MergedRuns(sources)) {
                sources = List.of();
                n = merged.drainTo((key, length, id, sameKey) -> sink.accept(key, length, id));
            }
        } finally {
            for (KeyIdCursor source : sources) {
                source.close();
            }
        }
        for (SortedIndexRecords part : parts) {
            part.releaseOf(index);
        }
        return n;
    }

    private List<KeyIdCursor> sortedOf(int index) throws IOException {
        synchronized (runs) {
            return runs.sorted(index);
        }
    }

    private void releaseOf(int index) throws IOException {
        synchronized (runs) {
            runs.release(index);
        }
    }

    /** Deletes every run file and the directory holding them. */
    @Override
    public void close() throws IOException {
        runs.close();
    }
}
