package dev.larch.server.commit;

import java.util.concurrent.atomic.AtomicInteger;

import dev.larch.server.store.LmdbStore;
import dev.larch.server.store.StoreException;

/**
 * A write queue for tests outside this package whose commits can be made to fail as a full or lost
 * disk would: {@link #refuseCommitAfter} arms it, every other commit is real.
 */
public final class FailingCommits {
    private final AtomicInteger commitsUntilRefusal = new AtomicInteger();
    private final WriteQueue queue;

    public FailingCommits(LmdbStore store) {
        this.queue = new WriteQueue(
                new GroupCommit(store, txn -> {
                    if (commitsUntilRefusal.get() > 0 && commitsUntilRefusal.decrementAndGet() == 0) {
                        throw new StoreException("simulated: the disk went away during the commit");
                    }
                    txn.commit();
                }),
                256);
    }

    public WriteQueue queue() {
        return queue;
    }

    /** The {@code n}-th top-level commit from now (1 = the next) fails without committing; later ones succeed. */
    public void refuseCommitAfter(int n) {
        commitsUntilRefusal.set(n);
    }
}
