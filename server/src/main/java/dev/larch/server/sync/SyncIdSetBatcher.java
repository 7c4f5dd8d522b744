package dev.larch.server.sync;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;

import dev.larch.server.entry.EntryUuids;

/**
 * Gathers the UUIDs of a present (or delete) phase into syncIdSet batches of at most
 * {@value #BATCH_SIZE}, handing each full batch to a sink at once and the last with {@link #flush()}: at
 * most one batch is held, whatever the size of the tree.
 *
 * <p>Not thread-safe: one per sync search, used by the thread that streams it.
 */
public final class SyncIdSetBatcher {

    /** The UUIDs per syncIdSet, as slapd sends them. */
    public static final int BATCH_SIZE = 256;

    private final Consumer<List<byte[]>> sink;
    private List<byte[]> batch = new ArrayList<>(BATCH_SIZE);

    /** @param sink receives each batch: 1–{@value #BATCH_SIZE} UUIDs, an unmodifiable list it may keep */
    public SyncIdSetBatcher(Consumer<List<byte[]>> sink) {
        this.sink = sink;
    }

    /**
     * Adds a copy of {@code uuid}; hands the batch over when it is full.
     *
     * @throws IllegalArgumentException when {@code uuid} is not 16 bytes long
     */
    public void add(byte[] uuid) {
        EntryUuids.checkLength(uuid);
        batch.add(uuid.clone());
        if (batch.size() == BATCH_SIZE) {
            flush();
        }
    }

    /** Hands over what is gathered, if anything: the end of the phase. */
    public void flush() {
        if (batch.isEmpty()) {
            return;
        }
        List<byte[]> full = Collections.unmodifiableList(batch);
        batch = new ArrayList<>(BATCH_SIZE);
        sink.accept(full);
    }

    /** How many UUIDs wait for the next batch. */
    public int pending() {
        return batch.size();
    }
}
