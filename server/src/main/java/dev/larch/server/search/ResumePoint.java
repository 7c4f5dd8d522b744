package dev.larch.server.search;

import java.util.Arrays;

import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.store.DnTree;
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
 * @param sortKeys the last entry's sort keys when the search is sorted (server-side sort orders by
 *     them, then by ID); null otherwise
 */
public record ResumePoint(long lastId, long[] pathIds, byte[][] pathRdnKeys, String[] sortKeys) {

    /** Where a sorted search goes on: after the entry with these sort keys and this ID. */
    public static ResumePoint sorted(long lastId, String[] sortKeys) {
        return new ResumePoint(lastId, new long[0], new byte[0][], sortKeys.clone());
    }

    /**
     * Where to go on after {@code last}, a result of a search based at {@code baseId}.
     *
     * @param normalizedDn {@code last}'s DN, schema-normalized
     */
    public static ResumePoint after(Directory directory, ReadTxn txn, long baseId, StoredEntry last, Dn normalizedDn) {
        int depth = 0;
        long[] ids = new long[Math.max(0, normalizedDn.size())];
        for (long id = last.id(); id != baseId && id != DnTree.NO_PARENT && depth < ids.length; ) {
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
        return new ResumePoint(last.id(), pathIds, keys, null);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ResumePoint r
                && lastId == r.lastId
                && Arrays.equals(pathIds, r.pathIds)
                && Arrays.deepEquals(pathRdnKeys, r.pathRdnKeys)
                && Arrays.equals(sortKeys, r.sortKeys);
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
