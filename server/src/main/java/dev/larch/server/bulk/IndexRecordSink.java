package dev.larch.server.bulk;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.larch.config.IndexKind;
import dev.larch.server.store.IndexRef;
import dev.larch.server.store.WriteTxn;

/**
 * Takes the index records a bulk load's transactions divert ({@link WriteTxn#bulkLoad}) into
 * {@link SortedRuns}, one run set per index of the store. Not thread-safe: the import's writer
 * thread is its only user.
 */
final class IndexRecordSink implements WriteTxn.BulkIndexSink {
    private final List<IndexRef> indexes;
    private final Map<String, EnumMap<IndexKind, Integer>> slots = new HashMap<>();
    private final SortedRuns runs;
    private long records;

    IndexRecordSink(List<IndexRef> indexes, SortedRuns runs) {
        this.indexes = List.copyOf(indexes);
        this.runs = runs;
        for (int i = 0; i < this.indexes.size(); i++) {
            IndexRef ref = this.indexes.get(i);
            slots.computeIfAbsent(ref.attributeOid(), k -> new EnumMap<>(IndexKind.class))
                    .put(ref.kind(), i);
        }
    }

    /** @throws IllegalArgumentException for an index the store does not keep, as a direct put would */
    @Override
    public void add(String attributeOid, IndexKind kind, byte[] storedKey, long id) {
        EnumMap<IndexKind, Integer> byKind = slots.get(attributeOid);
        Integer slot = byKind == null ? null : byKind.get(kind);
        if (slot == null) {
            throw new IllegalArgumentException("no " + kind + " index on " + attributeOid);
        }
        try {
            runs.add(slot, storedKey, id);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write an index run: " + e.getMessage(), e);
        }
        records++;
    }

    /** The indexes, in slot order. */
    List<IndexRef> indexes() {
        return indexes;
    }

    /** Records taken so far. */
    long records() {
        return records;
    }
}
