package dev.larch.server.store;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lmdbjava.Cursor;
import org.lmdbjava.Env;
import org.lmdbjava.EnvFlags;
import org.lmdbjava.GetOp;
import org.lmdbjava.Txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Real LMDB in a temporary directory: cursors kept per thread and tree, renewed, bounded, closed. */
class CursorShelfTest {
    @TempDir
    Path dir;

    private Env<ByteBuffer> env() {
        return Env.create()
                .setMapSize(1L << 22)
                .setMaxReaders(16)
                .setMaxDbs(CursorShelf.MAX_PER_THREAD + 2)
                .open(dir.toFile(), EnvFlags.MDB_NOTLS);
    }

    private static Tree tree(Env<ByteBuffer> env, String name) {
        return Tree.open(env, name, true, false, e -> e);
    }

    private static ByteBuffer key(int k) {
        return ByteBuffer.allocateDirect(1).put((byte) k).flip();
    }

    private static void put(Env<ByteBuffer> env, Tree tree, int k) {
        try (Txn<ByteBuffer> txn = env.txnWrite()) {
            tree.put(txn, key(k), key(k));
            txn.commit();
        }
    }

    private static boolean has(Cursor<ByteBuffer> cursor, int k) {
        return cursor.get(key(k), GetOp.MDB_SET_KEY);
    }

    @Test
    void aThreadsNextLookupRenewsTheCursorItGaveBackOntoTheNewestState() {
        try (Env<ByteBuffer> env = env()) {
            Tree tree = tree(env, "t");
            CursorShelf shelf = new CursorShelf(4);
            Cursor<ByteBuffer> first;
            try (Txn<ByteBuffer> txn = env.txnRead()) {
                first = shelf.borrow(tree, txn);
                assertFalse(has(first, 1));
                shelf.giveBack(first);
            }
            put(env, tree, 1);
            try (Txn<ByteBuffer> txn = env.txnRead()) {
                Cursor<ByteBuffer> second = shelf.borrow(tree, txn);
                assertSame(first, second);
                assertTrue(has(second, 1), "renewed onto the transaction that sees the write");
                shelf.giveBack(second);
            }
            assertEquals(1, shelf.keptByThisThread());
            shelf.closeAll();
            assertThrows(Cursor.ClosedException.class, first::count);
        }
    }

    @Test
    void aSecondBorrowOfTheSameTreeGetsACursorOfItsOwnClosedWhenGivenBack() {
        try (Env<ByteBuffer> env = env()) {
            Tree tree = tree(env, "t");
            put(env, tree, 1);
            CursorShelf shelf = new CursorShelf(4);
            try (Txn<ByteBuffer> txn = env.txnRead()) {
                Cursor<ByteBuffer> outer = shelf.borrow(tree, txn);
                assertTrue(has(outer, 1));
                Cursor<ByteBuffer> inner = shelf.borrow(tree, txn);
                assertNotSame(outer, inner);
                assertFalse(has(inner, 2));
                shelf.giveBack(inner);
                assertThrows(Cursor.ClosedException.class, inner::count);
                assertEquals(1, outer.key().get(0), "the outer cursor still stands on key 1");
                shelf.giveBack(outer);
            }
            assertEquals(1, shelf.keptByThisThread());
            shelf.closeAll();
        }
    }

    @Test
    void aThreadKeepsAtMostTheBoundOfCursorsAndClosesTheRest() {
        try (Env<ByteBuffer> env = env()) {
            List<Tree> trees = new ArrayList<>();
            for (int i = 0; i <= CursorShelf.MAX_PER_THREAD; i++) {
                trees.add(tree(env, "t" + i));
            }
            CursorShelf shelf = new CursorShelf(4);
            List<Cursor<ByteBuffer>> lent = new ArrayList<>();
            try (Txn<ByteBuffer> txn = env.txnRead()) {
                for (Tree tree : trees) {
                    Cursor<ByteBuffer> c = shelf.borrow(tree, txn);
                    lent.add(c);
                    shelf.giveBack(c);
                }
            }
            assertEquals(CursorShelf.MAX_PER_THREAD, shelf.keptByThisThread());
            assertThrows(Cursor.ClosedException.class, lent.getLast()::count, "past the bound: closed");
            shelf.closeAll();
            for (Cursor<ByteBuffer> c : lent) {
                assertThrows(Cursor.ClosedException.class, c::count);
            }
        }
    }

    @Test
    void threadsBeyondTheBoundAndWriteTransactionsKeepNothing() throws Exception {
        ExecutorService other = Executors.newSingleThreadExecutor();
        try (Env<ByteBuffer> env = env()) {
            Tree tree = tree(env, "t");
            CursorShelf shelf = new CursorShelf(1);
            try (Txn<ByteBuffer> txn = env.txnRead()) {
                shelf.giveBack(shelf.borrow(tree, txn));
            }
            Cursor<ByteBuffer> elsewhere = other.submit(() -> {
                        try (Txn<ByteBuffer> txn = env.txnRead()) {
                            Cursor<ByteBuffer> c = shelf.borrow(tree, txn);
                            shelf.giveBack(c);
                            return c;
                        }
                    })
                    .get();
            assertThrows(Cursor.ClosedException.class, elsewhere::count);
            assertEquals(0, (int) other.submit(shelf::keptByThisThread).get());
            try (Txn<ByteBuffer> txn = env.txnWrite()) {
                Cursor<ByteBuffer> write = shelf.borrow(tree, txn);
                shelf.giveBack(write);
                assertThrows(Cursor.ClosedException.class, write::count, "a write's cursor is never kept");
            }
            assertEquals(1, shelf.keptByThisThread());
            shelf.closeAll();
        } finally {
            other.shutdown();
        }
    }
}
