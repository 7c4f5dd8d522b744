package dev.larch.server.store;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A place of its own for each of the first {@code maxThreads} threads that claim one, and none for
 * the threads after them: what the store keeps per thread between reads ({@link ReadTxnPool}'s reset
 * transaction, {@link CursorShelf}'s cursors) is kept by the event loops and workers that serve reads,
 * and a flow of short-lived threads cannot make it grow. Every place made can be visited, so that
 * what they hold is closed with the store.
 *
 * <p>Thread-safe; a place is used by its own thread alone, except by {@link #forEach} at close.
 *
 * @param <T> what a thread keeps
 */
final class ThreadPlaces<T> {
    private final int maxThreads;
    private final Supplier<T> make;

    @SuppressWarnings("ThreadLocalUsage") // one per store: a process may open several (restore, tests)
    private final ThreadLocal<Object> place = new ThreadLocal<>();
    /** Every place made, for {@link #forEach}. */
    private final ConcurrentLinkedQueue<T> places = new ConcurrentLinkedQueue<>();

    private final AtomicInteger claimed = new AtomicInteger();

    /** Stands for "this thread came too late and keeps nothing". */
    private static final Object NONE = new Object();

    /**
     * @param maxThreads how many threads get a place
     * @param make a new, empty place
     */
    ThreadPlaces(int maxThreads, Supplier<T> make) {
        this.maxThreads = maxThreads;
        this.make = make;
    }

    /** This thread's place, made on its first claim; null when it came after the first {@code maxThreads}. */
    T claim() {
        Object mine = place.get();
        if (mine == null) {
            if (claimed.incrementAndGet() <= maxThreads) {
                T made = make.get();
                places.add(made);
                mine = made;
            } else {
                mine = NONE;
            }
            place.set(mine);
        }
        return mine == NONE ? null : cast(mine);
    }

    /** This thread's place if it has claimed one; null otherwise (nothing is made). */
    T mine() {
        Object mine = place.get();
        return mine == null || mine == NONE ? null : cast(mine);
    }

    /** Visits every place made, whichever thread's. */
    void forEach(Consumer<T> visit) {
        places.forEach(visit);
    }

    @SuppressWarnings("unchecked") // only a T or NONE is ever set
    private T cast(Object place) {
        return (T) place;
    }
}
