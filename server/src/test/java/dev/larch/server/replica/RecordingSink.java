package dev.larch.server.replica;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.larch.server.sync.SyncCookie;

/**
 * A {@link ReplicaSink} that records every batch and, as a store would, keeps the last cookie of each
 * applied batch (with the consumer's rid and server ID) as its stored cookie. While {@link #hold} is on,
 * batches are left outstanding until the test completes them.
 */
final class RecordingSink implements ReplicaSink {
    final List<List<ReplicaChange>> batches = new CopyOnWriteArrayList<>();
    final ConcurrentLinkedQueue<CompletableFuture<Void>> held = new ConcurrentLinkedQueue<>();
    volatile boolean hold;
    volatile String failWith;

    private final int serverId;
    private volatile SyncCookie stored;

    RecordingSink(int serverId) {
        this.serverId = serverId;
    }

    @Override
    public SyncCookie storedCookie() {
        return stored;
    }

    @Override
    public CompletableFuture<Void> apply(List<ReplicaChange> changes) {
        batches.add(changes);
        if (failWith != null) {
            return CompletableFuture.failedFuture(new IllegalStateException(failWith));
        }
        if (!hold) {
            store(changes);
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> applied = new CompletableFuture<>();
        held.add(applied);
        return applied.thenRun(() -> store(changes));
    }

    /** Completes the held batches and applies every later one at once. */
    void release() {
        hold = false;
        CompletableFuture<Void> f;
        while ((f = held.poll()) != null) {
            f.complete(null);
        }
    }

    private void store(List<ReplicaChange> changes) {
        for (ReplicaChange change : changes) {
            if (change.cookie() != null) {
                stored = new SyncCookie(
                        change.cookie().rid(), serverId, change.cookie().csns());
            }
        }
    }

    /** Every change received, in order. */
    List<ReplicaChange> changes() {
        List<ReplicaChange> all = new ArrayList<>();
        for (List<ReplicaChange> batch : batches) {
            all.addAll(batch);
        }
        return all;
    }

    <T extends ReplicaChange> List<T> changes(Class<T> type) {
        return changes().stream().filter(type::isInstance).map(type::cast).toList();
    }
}
