package dev.larch.server.read.psearch;

import java.util.Arrays;

import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.store.DnTree;
import dev.larch.server.store.ReadTxn;

/**
 * The IDs of a changed entry and of its ancestors, read once per change however many persistent
 * searches ask whether the entry lies below their base. Not thread-safe: one change on the writer.
 */
final class Ancestry {
    private final Directory directory;
    private final ReadTxn txn;
    private final StoredEntry entry;
    /** The entry's ID, then its parent's and so on up to the naming context; null until asked. */
    private long[] ids;

    Ancestry(Directory directory, ReadTxn txn, StoredEntry entry) {
        this.directory = directory;
        this.txn = txn;
        this.entry = entry;
    }

    /** Whether {@code id} is the entry or one of its ancestors. */
    boolean contains(long id) {
        if (ids == null) {
            ids = read();
        }
        for (long each : ids) {
            if (each == id) {
                return true;
            }
        }
        return false;
    }

    private long[] read() {
        long[] chain = new long[8];
        int size = 0;
        chain[size++] = entry.id();
        for (long current = entry.parentId(); current != DnTree.NO_PARENT; current = directory.parentOf(txn, current)) {
            if (size == chain.length) {
                chain = Arrays.copyOf(chain, size * 2);
            }
            chain[size++] = current;
        }
        return Arrays.copyOf(chain, size);
    }
}
