package dev.larch.server.store;

import java.nio.ByteBuffer;
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
    private final Env<ByteBuffer> env;
    /** Each keeping thread's kept transaction, null while it has none. */
    private final ThreadPlaces<AtomicReference<Txn<ByteBuffer>>> slots;

    private volatile boolean closed;

    /** @param maxKept how many threads may keep a transaction (each holds a reader slot while idle) */
    ReadTxnPool(Env<ByteBuffer> env, int maxKept) {
        this.env = env;
        this.slots = new ThreadPlaces<>(maxKept, AtomicReference::new);
    }

    /** A read transaction on the newest state: this thread's kept one renewed, or a new one. */
    Txn<ByteBuffer> begin() {
        AtomicReference<Txn<ByteBuffer>> mine = slots.mine();
        Txn<ByteBuffer> kept = mine == null ? null : mine.getAndSet(null);
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
        AtomicReference<Txn<ByteBuffer>> mine = closed ? null : slots.claim();
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
        slots.forEach(s -> close(s.getAndSet(null)));
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
