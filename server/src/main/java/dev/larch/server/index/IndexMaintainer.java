package dev.larch.server.index;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.larch.config.IndexKind;
import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.store.IndexKeys;
import dev.larch.server.store.IndexRef;
import dev.larch.server.store.LmdbStore;
import dev.larch.server.store.WriteTxn;
import org.apache.directory.api.ldap.model.schema.AttributeType;
import org.apache.directory.api.ldap.model.schema.SchemaManager;

/**
 * Keeps attribute indexes in step with entries, inside the caller's write transaction.
 *
 * <p>Thread-safe (stateless apart from the schema and store it reads).
 */
public final class IndexMaintainer {
    private final LmdbStore store;
    private final SchemaManager schema;

    public IndexMaintainer(LmdbStore store, SchemaManager schema) {
        this.store = store;
        this.schema = schema;
    }

    public void add(WriteTxn txn, StoredEntry entry) {
        for (StoredAttribute attribute : entry.attributes()) {
            for (IndexKind kind : store.indexes().kinds(attribute.oid())) {
                txn.indexAdd(attribute.oid(), kind, keys(attribute, kind), entry.id());
            }
        }
    }

    public void remove(WriteTxn txn, StoredEntry entry) {
        for (StoredAttribute attribute : entry.attributes()) {
            for (IndexKind kind : store.indexes().kinds(attribute.oid())) {
                for (IndexKeys.Key key : keys(attribute, kind)) {
                    txn.indexDelete(attribute.oid(), kind, key.bytes(), entry.id());
                }
            }
        }
    }

    /** Applies only the key differences between two versions of the same entry (same ID). */
    public void update(WriteTxn txn, StoredEntry before, StoredEntry after) {
        Set<String> oids = new HashSet<>();
        before.attributes().forEach(a -> oids.add(a.oid()));
        after.attributes().forEach(a -> oids.add(a.oid()));
        for (String oid : oids) {
            Set<IndexKind> kinds = store.indexes().kinds(oid);
            if (kinds.isEmpty()) {
                continue;
            }
            StoredAttribute old = before.attribute(oid);
            StoredAttribute now = after.attribute(oid);
            if (sameValues(old, now)) {
                continue; // keys follow from the values alone: an attribute the write left alone keeps its keys
            }
            for (IndexKind kind : kinds) {
                Set<IndexKeys.Key> oldKeys = old == null ? Set.of() : keys(old, kind);
                Set<IndexKeys.Key> newKeys = now == null ? Set.of() : keys(now, kind);
                for (IndexKeys.Key k : oldKeys) {
                    if (!newKeys.contains(k)) {
                        txn.indexDelete(oid, kind, k.bytes(), before.id());
                    }
                }
                for (IndexKeys.Key k : newKeys) {
                    if (!oldKeys.contains(k)) {
                        txn.indexAdd(oid, kind, k.bytes(), after.id());
                    }
                }
            }
        }
    }

    /**
     * Whether two versions of an attribute hold the same values in the same order, byte for byte.
     * Most writes change one or two attributes; comparing bytes is far cheaper than normalizing and
     * cutting keys (substring grams) for every indexed attribute of the entry twice.
     */
    private static boolean sameValues(StoredAttribute old, StoredAttribute now) {
        return (old == null || now == null) ? old == now : Arrays.deepEquals(old.values(), now.values());
    }

    /** Adds one entry's keys to a single index (used when building a newly configured index). */
    public void addTo(WriteTxn txn, StoredEntry entry, IndexRef index) {
        StoredAttribute attribute = entry.attribute(index.attributeOid());
        if (attribute != null) {
            for (IndexKeys.Key key : keys(attribute, index.kind())) {
                txn.indexAdd(attribute.oid(), index.kind(), key.bytes(), entry.id());
            }
        }
    }

    /** The keys {@code entry} has in {@code index}: what the index must hold for it, no more. */
    public Set<IndexKeys.Key> keysOf(StoredEntry entry, IndexRef index) {
        StoredAttribute attribute = entry.attribute(index.attributeOid());
        return attribute == null ? Set.of() : keys(attribute, index.kind());
    }

    private Set<IndexKeys.Key> keys(StoredAttribute attribute, IndexKind kind) {
        String syntax = syntaxOf(attribute.oid());
        Set<IndexKeys.Key> out = new HashSet<>();
        for (byte[] normalized : attribute.normalized()) {
            List<byte[]> keys = IndexKeys.keys(kind, normalized, syntax);
            for (byte[] k : keys) {
                out.add(new IndexKeys.Key(k));
            }
        }
        return out;
    }

    private String syntaxOf(String oid) {
        AttributeType type = schema.getAttributeType(oid);
        return type == null ? null : type.getSyntaxOid();
    }
}
