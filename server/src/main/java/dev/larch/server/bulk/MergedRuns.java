package dev.larch.server.bulk;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Merges sorted runs into one ascending stream of distinct (key, ID) records: the same pair in
 * two places (two values whose stored keys are cut to the same bytes) comes out once. Not
 * thread-safe; closes the runs when closed.
 */
final class MergedRuns implements AutoCloseable {
    /** Receives the merged records in order. */
    interface Sink {
        /**
         * @param sameKey whether the key equals the previous record's (so only the ID is new)
         */
        void accept(byte[] key, int keyLength, long id, boolean sameKey) throws IOException;
    }

    private final List<KeyIdCursor> runs;
    private final PriorityQueue<KeyIdCursor> heap = new PriorityQueue<>(MergedRuns::compare);

    MergedRuns(List<KeyIdCursor> runs) {
        this.runs = List.copyOf(runs);
    }

    /** Feeds every record of every run, merged, to {@code sink}; returns how many it accepted. */
    long drainTo(Sink sink) throws IOException {
        for (KeyIdCursor run : runs) {
            if (run.next()) {
                heap.add(run);
            }
        }
        byte[] last = new byte[64];
        int lastLength = -1;
        long lastId = 0;
        long n = 0;
        // The run that gave the last record usually gives the next too (a key's IDs sit together):
        // it stays out of the heap while it is not after the heap's first, one comparison per record
        // instead of a poll and an add (the heap's comparisons were 8% of an import's writer, JFR).
        KeyIdCursor top = heap.poll();
        while (top != null) {
            int length = top.keyLength();
            boolean sameKey = lastLength == length
                    && Arrays.equals(last, 0, length, top.keyArray(), top.keyOffset(), top.keyOffset() + length);
            if (!sameKey || top.id() != lastId) {
                if (!sameKey) {
                    if (last.length < length) {
                        last = new byte[Math.max(length, 2 * last.length)];
                    }
                    System.arraycopy(top.keyArray(), top.keyOffset(), last, 0, length);
                    lastLength = length;
                }
                lastId = top.id();
                sink.accept(last, length, lastId, sameKey);
                n++;
            }
            if (!top.next()) {
                top = heap.poll();
            } else if (!heap.isEmpty() && compare(top, heap.peek()) > 0) {
                heap.add(top);
                top = heap.poll();
            }
        }
        return n;
    }

    private static int compare(KeyIdCursor a, KeyIdCursor b) {
        int c = Arrays.compareUnsigned(
                a.keyArray(),
                a.keyOffset(),
                a.keyOffset() + a.keyLength(),
                b.keyArray(),
                b.keyOffset(),
                b.keyOffset() + b.keyLength());
        return c != 0 ? c : Long.compare(a.id(), b.id());
    }

    @Override
    public void close() throws IOException {
        IOException first = null;
        for (KeyIdCursor run : runs) {
            try {
                run.close();
            } catch (IOException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
