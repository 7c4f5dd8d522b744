package dev.larch.server.search;

import java.util.Arrays;

import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.store.Keys;
import dev.larch.server.store.ReadTxn;
import org.apache.directory.api.ldap.model.name.Dn;

/**
 * Where a search that stopped after an entry goes on, in a later read transaction: the ID of the last
 * entry returned (candidate lists are in ascending ID order) and the path of DN-index positions from
 * the search base down to it (a scope walk visits children in normalized-RDN order). Kept by simple
 * paged results between pages instead of a read transaction or a result set; a few hundred bytes.
 *
 * <p>Immutable. A later page resumes after these positions whether or not the entries still exist.
 *
 * @param lastId the ID of the last entry returned
 * @param pathIds the IDs from the base's child down to that entry (the entry last); empty when the
 *     entry was the base itself
 * @param pathRdnKeys the DN-index key of each of {@code pathIds} under its parent
 */
public record ResumePoint(long lastId, long[] pathIds, byte[][] pathRdnKeys) {

    /**
     * Where to go on after {@code last}, a result of a search based at {@code baseId}.
     *
     * @param normalizedDn {@code last}'s DN, schema-normalized
     */
    public static ResumePoint after(Directory directory, ReadTxn txn, long baseId, StoredEntry last, Dn normalizedDn) {
        int depth = 0;
        long[] ids = new long[Math.max(0, normalizedDn.size())];
        for (long id = last.id(); id != baseId && id != Keys.NO_PARENT && depth < ids.length; ) {
            ids[depth++] = id;
            id = directory.parentOf(txn, id);
        }
        long[] pathIds = new long[depth];
        byte[][] keys = new byte[depth][];
        for (int i = 0; i < depth; i++) {
            // ids[0] is the entry itself, ids[depth - 1] the base's child; the path runs downward.
            pathIds[i] = ids[depth - 1 - i];
            keys[i] = Directory.rdnKey(normalizedDn.getRdn(depth - 1 - i));
        }
        return new ResumePoint(last.id(), pathIds, keys);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ResumePoint r
                && lastId == r.lastId
                && Arrays.equals(pathIds, r.pathIds)
                && Arrays.deepEquals(pathRdnKeys, r.pathRdnKeys);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(lastId) * 31 + Arrays.hashCode(pathIds);
    }

    @Override
    public String toString() {
        return "ResumePoint[lastId=" + lastId + ", depth=" + pathIds.length + "]";
    }
}
