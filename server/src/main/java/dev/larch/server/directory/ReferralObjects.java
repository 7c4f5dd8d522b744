package dev.larch.server.directory;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.larch.config.IndexKind;
import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.store.IdCursor;
import dev.larch.server.store.IdSet;
import dev.larch.server.store.IndexRef;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.store.WriteTxn;
import org.apache.directory.api.ldap.model.constants.SchemaConstants;
import org.apache.directory.api.ldap.model.schema.AttributeType;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * The IDs of the directory's referral objects (RFC 3296: entries of object class {@code referral}),
 * held in memory so that asking "is this entry, or an ancestor, a referral object" costs nothing
 * while the directory holds none, which is the common case: {@link #isEmpty()} is one volatile read.
 *
 * <p>Loaded once when the directory opens (from the {@code objectClass} equality index when there
 * is one, else one pass over the entries) and kept current by {@link Directory}'s writes, which
 * register the change to run when their transaction commits; a read transaction that began before
 * such a commit may see the set one write ahead, which only ever concerns the entry just written.
 * Memory: one boxed ID per referral object.
 *
 * <p>Thread-safe.
 */
public final class ReferralObjects {
    private final String objectClassOid;
    private final byte[] referralClass;
    private final Set<Long> ids = ConcurrentHashMap.newKeySet();
    /** {@code ids.isEmpty()} without touching the map, for the hot path. */
    private volatile boolean empty = true;

    ReferralObjects(SchemaNormalizer schema) {
        AttributeType objectClass = schema.type(SchemaConstants.OBJECT_CLASS_AT);
        this.objectClassOid = objectClass.getOid();
        this.referralClass = schema.value(objectClass, SchemaConstants.REFERRAL_OC.getBytes(UTF_8))
                .getNormalized()
                .getBytes(UTF_8);
    }

    /** Reads which entries are referral objects, in {@code txn}; call once, before serving. */
    void load(ReadTxn txn, Directory directory) {
        ids.clear();
        if (directory.store().indexes().isIndexed(objectClassOid, IndexKind.EQUALITY)
                && !directory.store().indexes().unbuilt().contains(new IndexRef(objectClassOid, IndexKind.EQUALITY))) {
            IdSet found = txn.ids(objectClassOid, IndexKind.EQUALITY, referralClass, Integer.MAX_VALUE);
            for (int i = 0; i < found.size(); i++) {
                ids.add(found.get(i));
            }
        } else {
            try (IdCursor all = txn.allEntries()) {
                for (long id = all.next(); id != ReadTxn.NOT_FOUND; id = all.next()) {
                    StoredEntry entry = directory.load(txn, id);
                    if (entry != null && isReferral(entry)) {
                        ids.add(id);
                    }
                }
            }
        }
        empty = ids.isEmpty();
    }

    /** Whether the directory holds no referral object: then no operation needs to look further. */
    public boolean isEmpty() {
        return empty;
    }

    /** Whether entry {@code id} is a referral object (as of the last commit). */
    public boolean contains(long id) {
        return !empty && ids.contains(id);
    }

    /** The referral objects' IDs, ascending. */
    public IdSet ids() {
        IdSet.Builder out = new IdSet.Builder();
        ids.stream().sorted().forEach(out::add);
        return out.build();
    }

    /** Whether {@code entry} has the object class {@code referral}. */
    public boolean isReferral(StoredEntry entry) {
        StoredAttribute classes = entry.attribute(objectClassOid);
        return classes != null && classes.containsNormalized(referralClass);
    }

    /**
     * Records, for when {@code txn} commits, that {@code before} became {@code after} (either null for
     * an add or a delete), when that makes or unmakes a referral object.
     */
    void written(WriteTxn txn, StoredEntry before, StoredEntry after) {
        boolean was = before != null && isReferral(before);
        boolean is = after != null && isReferral(after);
        if (is && !was) {
            long id = after.id();
            txn.onCommit(() -> {
                ids.add(id);
                empty = false;
            });
        } else if (was && !is) {
            long id = before.id();
            txn.onCommit(() -> {
                ids.remove(id);
                empty = ids.isEmpty();
            });
        }
    }
}
