package dev.larch.server.store;

import java.nio.file.Path;

/**
 * The version of the on-disk layout (the databases, their key formats and the entry encoding),
 * recorded in the store's {@code meta} database. A store of another version is refused, never
 * misread: its data moves by export with the Larch that wrote it and import with this one.
 *
 * <p>Stores written before the version was recorded have the layout of version 1 and are stamped
 * with it when next opened for writing.
 */
public final class StoreFormat {
    /** The layout this build reads and writes. */
    public static final int VERSION = 1;

    static final String META_KEY = "format";

    private StoreFormat() {}

    /**
     * @param found the version recorded in the store in {@code directory}, or null for none
     * @throws StoreException when {@code found} is another version, saying how to move the data
     */
    static void check(Path directory, Integer found) {
        if (found == null || found == VERSION) {
            return;
        }
        throw new StoreException("the store in " + directory + " has format version " + found
                + "; this Larch reads format " + VERSION + ". Move the data: with the Larch that wrote it run"
                + " './larch export FILE', then with this one './larch import FILE' into an empty data directory");
    }
}
