package dev.larch.server.store;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import java.util.function.Function;

import dev.larch.config.IndexKind;
import org.lmdbjava.Env;
import org.lmdbjava.LmdbException;
import org.lmdbjava.Txn;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * Which attribute indexes the store keeps, which of them are built, and their trees. Opened with
 * the configured indexes, it creates the missing trees, drops those no longer configured (so a later
 * re-add rebuilds them) and lists the ones not yet built over the existing entries; opened
 * read-only, it holds just the indexes the store marks built, whatever the config says.
 *
 * <p>Thread-safety: the set of indexes is fixed once opened and safe to read from any thread; the
 * unbuilt list shrinks as builds commit.
 */
public final class IndexCatalog {
    private final Map<String, AttributeIndex> byTreeName = new HashMap<>();
    /** The same indexes by OID and kind: a lookup on the search path builds no tree name. */
    private final Map<String, EnumMap<IndexKind, AttributeIndex>> byAttribute = new HashMap<>();

    private final Map<String, EnumSet<IndexKind>> kinds = new HashMap<>();
    private final List<IndexRef> unbuilt = new CopyOnWriteArrayList<>();
    private final MetaTree meta;

    private IndexCatalog(MetaTree meta) {
        this.meta = meta;
    }

    /**
     * Opens the indexes of {@code configured} (attribute OID → kinds), creating missing trees and
     * dropping index trees not configured.
     */
    static IndexCatalog open(
            Env<ByteBuffer> env,
            MetaTree meta,
            Map<String, Set<IndexKind>> configured,
            Function<LmdbException, RuntimeException> writeFailure) {
        IndexCatalog catalog = new IndexCatalog(meta);
        Set<String> wanted = new HashSet<>();
        for (Map.Entry<String, Set<IndexKind>> e : configured.entrySet()) {
            for (IndexKind kind : e.getValue()) {
                IndexRef ref = new IndexRef(e.getKey(), kind);
                wanted.add(ref.treeName());
                catalog.add(ref, Tree.open(env, ref.treeName(), true, true, writeFailure));
                if (!catalog.isMarkedBuilt(env, ref)) {
                    catalog.unbuilt.add(ref);
                }
            }
        }
        catalog.dropAllBut(env, wanted);
        return catalog;
    }

    /** Opens, read-only, every index tree the store marks built. */
    static IndexCatalog openBuilt(
            Env<ByteBuffer> env, MetaTree meta, Function<LmdbException, RuntimeException> writeFailure) {
        IndexCatalog catalog = new IndexCatalog(meta);
        for (byte[] rawName : env.getDbiNames()) {
            IndexRef ref = IndexRef.ofTreeName(new String(rawName, UTF_8));
            if (ref != null && catalog.isMarkedBuilt(env, ref)) {
                catalog.add(ref, Tree.open(env, ref.treeName(), false, true, writeFailure));
            }
        }
        return catalog;
    }

    private void add(IndexRef ref, Tree tree) {
        AttributeIndex index = new AttributeIndex(ref, tree);
        byTreeName.put(ref.treeName(), index);
        byAttribute
                .computeIfAbsent(ref.attributeOid(), k -> new EnumMap<>(IndexKind.class))
                .put(ref.kind(), index);
        kinds.computeIfAbsent(ref.attributeOid(), k -> EnumSet.noneOf(IndexKind.class))
                .add(ref.kind());
    }

    private boolean isMarkedBuilt(Env<ByteBuffer> env, IndexRef ref) {
        try (Txn<ByteBuffer> txn = env.txnRead()) {
            return meta.isBuilt(txn, ref.treeName());
        }
    }

    /** An index that is no longer configured would go stale; drop it so a later re-add rebuilds it. */
    private void dropAllBut(Env<ByteBuffer> env, Set<String> wanted) {
        for (byte[] rawName : env.getDbiNames()) {
            String name = new String(rawName, UTF_8);
            if (name.indexOf(':') < 0 || wanted.contains(name)) {
                continue;
            }
            try (Txn<ByteBuffer> txn = env.txnWrite()) {
                Tree.drop(env, txn, rawName);
                meta.clearBuilt(txn, name);
                txn.commit();
            }
        }
    }

    /** The indexes this store keeps, configured and built or not. */
    public List<IndexRef> refs() {
        List<IndexRef> refs = new ArrayList<>();
        kinds.forEach((oid, k) -> k.forEach(kind -> refs.add(new IndexRef(oid, kind))));
        return refs;
    }

    /** The index kinds kept for an attribute (by OID); empty when it has none. */
    public Set<IndexKind> kinds(String attributeOid) {
        EnumSet<IndexKind> k = kinds.get(attributeOid);
        return k == null ? Set.of() : k;
    }

    public boolean isIndexed(String attributeOid, IndexKind kind) {
        EnumSet<IndexKind> k = kinds.get(attributeOid);
        return k != null && k.contains(kind);
    }

    /** Configured indexes that have not been built over the existing entries yet. */
    public List<IndexRef> unbuilt() {
        return List.copyOf(unbuilt);
    }

    /** Records, in {@code txn}, that {@code ref} now covers every entry; it leaves {@link #unbuilt} at commit. */
    public void markBuilt(WriteTxn txn, IndexRef ref) {
        meta.markBuilt(txn.txn, ref.treeName());
        txn.onCommit(() -> unbuilt.remove(ref));
    }

    /**
     * How many times each index was looked up for IDs since the store opened (a key, a prefix or a
     * range read by search planning; maintenance and verification are not counted). Indexes never
     * read are absent. Process memory only: nothing of it is written to the store.
     */
    public Map<IndexRef, Long> lookups() {
        Map<IndexRef, Long> out = new HashMap<>();
        for (AttributeIndex index : byTreeName.values()) {
            long n = index.lookups();
            if (n > 0) {
                out.put(index.ref(), n);
            }
        }
        return out;
    }

    /**
     * Sets every count of {@link #lookups()} back to zero: the server's self-warm-up searches before
     * it listens, and those are not clients' lookups.
     */
    public void forgetLookups() {
        for (AttributeIndex index : byTreeName.values()) {
            index.forgetLookups();
        }
    }

    /**
     * The index {@code kind} on {@code attributeOid}.
     *
     * @throws IllegalArgumentException when the store keeps no such index
     */
    AttributeIndex get(String attributeOid, IndexKind kind) {
        EnumMap<IndexKind, AttributeIndex> indexes = byAttribute.get(attributeOid);
        AttributeIndex index = indexes == null ? null : indexes.get(kind);
        if (index == null) {
            throw new IllegalArgumentException("no " + kind + " index on " + attributeOid);
        }
        return index;
    }

    AttributeIndex get(IndexRef ref) {
        return get(ref.attributeOid(), ref.kind());
    }

    /** Visits each index's tree name and tree (for statistics). */
    void forEachTree(BiConsumer<String, Tree> action) {
        byTreeName.forEach((name, index) -> action.accept(name, index.tree()));
    }
}
