package dev.larch.server.store;

import java.nio.ByteBuffer;

import org.lmdbjava.Cursor;
import org.lmdbjava.Txn;

/**
 * Cursors a thread keeps, one per tree, and renews onto its next read transaction instead of
 * opening and closing one per lookup: opening an lmdbjava cursor costs about 400 bytes of garbage
 * (its key and value holders and their native memory wrappers), once per index lookup of a search.
 * LMDB lets a cursor of a read-only transaction move to another read-only transaction, whether the
 * first is live or ended ({@code mdb_cursor_renew}); cursors of write transactions are opened and
 * closed as before.
 *
 * <p>Bounded like {@link ReadTxnPool}: only the first {@code maxThreads} threads to borrow keep
 * cursors, each at most {@link #MAX_PER_THREAD} (the store's trees, one per index, are fixed by its
 * configuration, not by clients). A cursor is lent to one caller at a time; a second borrow of the
 * same tree on the same thread gets a cursor of its own, closed when given back.
 *
 * <p>Thread-safe; each thread's shelf is used by that thread alone. {@link #closeAll} must run with
 * no read open, before the environment closes.
 */
final class CursorShelf {
    /** The most cursors one thread keeps. */
    static final int MAX_PER_THREAD = 32;

    /** Each keeping thread's shelf. */
    private final ThreadPlaces<Shelf> shelves;

    private volatile boolean closed;

    /** @param maxThreads how many threads may keep cursors */
    CursorShelf(int maxThreads) {
        this.shelves = new ThreadPlaces<>(maxThreads, Shelf::new);
    }

    /** A cursor over {@code tree} in {@code txn}; give it back with {@link #giveBack} before {@code txn} ends. */
    Cursor<ByteBuffer> borrow(Tree tree, Txn<ByteBuffer> txn) {
        Shelf mine = txn.isReadOnly() && !closed ? shelves.claim() : null;
        return mine == null ? tree.cursor(txn) : mine.lend(tree, txn);
    }

    /** Ends the use of a cursor {@link #borrow} gave on this thread: kept for the next, or closed. */
    void giveBack(Cursor<ByteBuffer> cursor) {
        Shelf mine = shelves.mine();
        if (mine == null || closed || !mine.takeBack(cursor)) {
            cursor.close();
        }
    }

    /** Closes every kept cursor; call with no read open, before the environment closes. */
    void closeAll() {
        closed = true;
        shelves.forEach(Shelf::closeAll);
    }

    /** How many cursors this thread keeps (for tests). */
    int keptByThisThread() {
        Shelf mine = shelves.mine();
        return mine == null ? 0 : mine.size;
    }

    /** One thread's cursors, found by their tree's identity. */
    private static final class Shelf {
        private final Tree[] trees = new Tree[MAX_PER_THREAD];

        @SuppressWarnings({"unchecked", "rawtypes"}) // a generic array
        private final Cursor<ByteBuffer>[] cursors = new Cursor[MAX_PER_THREAD];

        private final boolean[] lent = new boolean[MAX_PER_THREAD];
        private int size;

        @SuppressWarnings("ReferenceEquality") // a tree is its cursor's key by identity
        Cursor<ByteBuffer> lend(Tree tree, Txn<ByteBuffer> txn) {
            for (int i = 0; i < size; i++) {
                if (trees[i] == tree) {
                    if (lent[i]) {
                        return tree.cursor(txn);
                    }
                    cursors[i].renew(txn);
                    lent[i] = true;
                    return cursors[i];
                }
            }
            Cursor<ByteBuffer> fresh = tree.cursor(txn);
            if (size < MAX_PER_THREAD) {
                trees[size] = tree;
                cursors[size] = fresh;
                lent[size] = true;
                size++;
            }
            return fresh;
        }

        /** Whether {@code cursor} is one of this shelf's, now back on it. */
        @SuppressWarnings("ReferenceEquality")
        boolean takeBack(Cursor<ByteBuffer> cursor) {
            for (int i = 0; i < size; i++) {
                if (cursors[i] == cursor) {
                    lent[i] = false;
                    return true;
                }
            }
            return false;
        }

        void closeAll() {
            for (int i = 0; i < size; i++) {
                cursors[i].close();
                cursors[i] = null;
                trees[i] = null;
            }
            size = 0;
        }
    }
}
