package dev.larch.server.store;

import java.nio.file.Path;

/**
 * The version of the on-disk layout (the databases, their key formats and the entry encoding),
 * recorded in the store's {@code meta} database. A store of another version is refused, never
 * misread: its data moves by export with the Larch that wrote it and import with this one. Each
 * tree's class documents its part of the layout ({@link EntryTree}, {@link DnTree}, {@link
 * IndexKeys} with {@link AttributeIndex}, {@link AttributeNumbers}, {@link MetaTree}); the entry
 * encoding is {@code dev.larch.server.entry.EntryCodec}'s. A change to any of them is a new version.
 *
 * <p>Versions: 1, the first recorded; 2, entries store their {@code memberOf} values (kept by
 * {@code dev.larch.server.group.MemberOfMaintainer}), which a version 1 store lacks, so it is
 * refused rather than read with every memberOf missing; 3, an entry stores its own RDN (a naming
 * context's root its whole DN) where it stored its full DN, the DN being rebuilt from the parent
 * chain, and the {@link MetaTree} counts renames: a modify DN of an entry with descendants then
 * rewrites that entry alone instead of every entry below it. A version 2 entry read as version 3
 * would give every DN twice its parent's part, so version 2 is refused; 4, every entry carries an
 * {@code entryCSN} and a {@code structuralObjectClass}, and the {@link ChangeLogTree} and the
 * contextCSN in the {@link MetaTree} record its changes for content synchronization, none of which
 * a version 3 store has; 5, the equality indexes of DN-valued attributes key a DN by its RDNs in
 * reverse order ({@link DnKeys}). A version 4 store opened for writing is upgraded in place: those
 * indexes are emptied and marked unbuilt in the transaction that stamps version 5, and are built
 * again over the entries before the server serves ({@code StoredDirectory}); opened read-only, it is
 * refused until then. Stores written before the version was
 * recorded have the layout of version 1 and are refused too; an empty store without a version is
 * new and stamped with this one when opened for writing.
 */
public final class StoreFormat {
    /** The layout this build reads and writes. */
    public static final int VERSION = 5;

    /** The one older layout a writer upgrades in place ({@link #VERSION}'s DN keys aside, the same). */
    public static final int UPGRADABLE = 4;

    static final String META_KEY = "format";

    private StoreFormat() {}

    /** The layout of a store that holds entries but no recorded version. */
    static final int UNRECORDED = 1;

    /**
     * @param found the version recorded in the store in {@code directory}, or null for none
     * @param empty whether the store holds no entry (a new store)
     * @param writable whether the store is opened for writing, which upgrades an {@link #UPGRADABLE} one
     * @return whether the store is to be upgraded from {@link #UPGRADABLE}
     * @throws StoreException when the store is of another version, saying how to move the data
     */
    static boolean check(Path directory, Integer found, boolean empty, boolean writable) {
        if (found == null && !empty) {
            found = UNRECORDED;
        }
        if (found == null || found == VERSION) {
            return false;
        }
        if (found == UPGRADABLE && writable) {
            return true;
        }
        if (found == UPGRADABLE) {
            throw new StoreException("the store in " + directory + " has format version " + found
                    + "; this Larch reads format " + VERSION + " and upgrades a version " + found
                    + " store when it opens it for writing: start the server on it once ('./larch serve')");
        }
        throw new StoreException("the store in " + directory + " has format version " + found
                + "; this Larch reads format " + VERSION + ". Move the data: with the Larch that wrote it run"
                + " './larch export FILE', then with this one './larch import FILE' into an empty data directory");
    }
}
