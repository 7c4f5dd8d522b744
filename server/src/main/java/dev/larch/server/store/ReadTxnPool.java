package dev.larch.server.store;

import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.lmdbjava.Env;
import org.lmdbjava.Txn;

/**
 * Read transactions kept, reset, for the next read on the same thread: beginning one with lmdbjava
 * costs about 850 bytes of garbage per search (its key and value holders, native memory wrappers, a
 * stream over its flags) and renewing a reset one costs none. A reset transaction keeps its reader
 * slot but no snapshot, so it pins no pages; a renewed one reads the newest state, as a new one would.
 * Moving one between threads is safe because the environment uses {@code MDB_NOTLS}.
 *
 * <p>Only the first {@code maxKept} threads to end a read keep one (the event loops and workers that
 * serve reads), so that a flow of short-lived threads cannot hold reader slots. Thread-safe.
 */
final class ReadTxnPool {
    /** The place of a thread that came after the {@code maxKept} first ones: it keeps nothing. */
    private static final AtomicReference<Txn<ByteBuffer>> NONE = new AtomicReference<>();

    private final Env<ByteBuffer> env;
    private final int maxKept;
    /** This thread's place for its kept transaction; null until it first gives one back. */
    @SuppressWarnings("ThreadLocalUsage") // one per store: a process may open several (restore, tests)
    private final ThreadLocal<AtomicReference<Txn<ByteBuffer>>> slot = new ThreadLocal<>();
    /** Every thread's place, so that {@link #closeAll} finds what each keeps. */
    private final ConcurrentLinkedQueue<AtomicReference<Txn<ByteBuffer>>> slots = new ConcurrentLinkedQueue<>();

    private final AtomicInteger slotCount = new AtomicInteger();
    private volatile boolean closed;

    /** @param maxKept how many threads may keep a transaction (each holds a reader slot while idle) */
    ReadTxnPool(Env<ByteBuffer> env, int maxKept) {
        this.env = env;
        this.maxKept = maxKept;
    }

    /** A read transaction on the newest state: this thread's kept one renewed, or a new one. */
    Txn<ByteBuffer> begin() {
        AtomicReference<Txn<ByteBuffer>> mine = slot.get();
        Txn<ByteBuffer> kept = mine == null || mine == NONE ? null : mine.getAndSet(null);
        if (kept != null) {
            try {
                kept.renew();
                return kept;
            } catch (RuntimeException e) {
                kept.close();
            }
        }
        return env.txnRead();
    }

    /** Ends {@code txn}: reset and kept for this thread's next read, or closed. */
    void end(Txn<ByteBuffer> txn) {
        AtomicReference<Txn<ByteBuffer>> mine = closed ? null : slotOfThisThread();
        if (mine == null || mine.get() != null) {
            txn.close();
            return;
        }
        try {
            txn.reset();
        } catch (RuntimeException e) {
            txn.close();
            throw e;
        }
        mine.set(txn);
        if (closed) {
            // closeAll may have passed this slot already
            close(mine.getAndSet(null));
        }
    }

    /** Closes every kept transaction; call before the environment closes, with no read open. */
    void closeAll() {
        closed = true;
        for (AtomicReference<Txn<ByteBuffer>> s : slots) {
            close(s.getAndSet(null));
        }
    }

    /** This thread's place, made on its first call; null when it may keep nothing. */
    private AtomicReference<Txn<ByteBuffer>> slotOfThisThread() {
        AtomicReference<Txn<ByteBuffer>> mine = slot.get();
        if (mine == null) {
            if (slotCount.incrementAndGet() <= maxKept) {
                mine = new AtomicReference<>();
                slots.add(mine);
            } else {
                mine = NONE;
            }
            slot.set(mine);
        }
        return mine == NONE ? null : mine;
    }

    /** Closes a kept (reset) transaction: renewed first, since lmdbjava frees only a live one's handle. */
    private static void close(Txn<ByteBuffer> kept) {
        if (kept == null) {
            return;
        }
        try {
            kept.renew();
        } catch (RuntimeException e) {
            // closed below all the same; its handle goes with the environment
        }
        kept.close();
    }
}
