package dev.larch.server.directory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

import dev.larch.config.IndexKind;
import dev.larch.server.store.IdSet;
import dev.larch.server.store.IndexRef;
import dev.larch.server.store.ReadTxn;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * The records of equality indexes of DN-valued attributes whose key names an entry strictly below
 * one subtree root, under any of a few names of that root (its DN before and after a modify DN):
 * what a rename must update besides the renamed entry, found without reading every descendant when
 * the indexes hold fewer records than the subtree holds entries.
 *
 * <p>Two ways to the same answer; the one that reads fewer records is taken. The walk reads the DN
 * index below the root (keys only, no entry), composes each descendant's normalized DN from the
 * stored normalized RDNs, and looks each up in each index. The scan reads each index's keys and keeps
 * those ending in {@code ,<root's normalized DN>}. The walk is tried first and given up, for the
 * scan, once the subtree holds more entries than the indexes hold records per lookup a descendant
 * costs. A stored key cut to the key size limit cannot be matched by its end: an index holding one
 * is answered by the walk, whatever it costs.
 *
 * <p>Not thread-safe; lives inside the caller's transaction.
 */
public final class SubtreeNames {
    /** Stored index keys are cut to this many bytes (LMDB's key limit). */
    private static final int MAX_KEY_BYTES = 511;

    /**
     * One index record naming an entry below the root.
     *
     * @param relativeName the named entry's normalized DN without the root's: {@code uid=a,ou=b}
     * @param root which of the root's names the record's key ends with, as the constructor listed them
     * @param id the record's entry ID (the entry holding the value)
     */
    public record Named(String relativeName, int root, long id) {}

    private final ReadTxn txn;
    private final long rootId;
    private final List<String> roots;
    private final List<byte[]> suffixes;
    /** Descendants the walk may find before the scan is cheaper. */
    private final long walkBound;
    /** The descendants' relative names once walked; null before. */
    private List<String> relative;
    /** The walked names as sorted index keys; null before the first probe. */
    private List<ProbeKey> probeKeys;
    /** Set when a walk was given up at {@link #walkBound}. */
    private boolean tooMany;
    /** DN-index records read by walks, for tests and monitoring. */
    private long walked;
    /** Index records read by scans. */
    private long scanned;

    /**
     * @param rootId the subtree's root, whose descendants the DN index holds in this transaction
     * @param rootNames the root's normalized DNs ({@code Dn.getNormName()}) a key may end with
     * @param oids the attributes {@link #below} will be asked about, each with an equality index
     */
    public SubtreeNames(ReadTxn txn, long rootId, List<String> rootNames, Collection<String> oids) {
        this(txn, rootId, rootNames, oids, -1);
    }

    /** @param walkBound descendants a walk may find before the scan is taken; -1 to judge by cost */
    SubtreeNames(ReadTxn txn, long rootId, List<String> rootNames, Collection<String> oids, long walkBound) {
        this.txn = txn;
        this.rootId = rootId;
        this.roots = List.copyOf(rootNames);
        this.suffixes = new ArrayList<>(roots.size());
        for (String root : roots) {
            suffixes.add(("," + root).getBytes(UTF_8));
        }
        if (walkBound >= 0) {
            this.walkBound = walkBound;
            return;
        }
        long records = 0;
        for (String oid : oids) {
            records += txn.indexRecordCount(oid, IndexKind.EQUALITY);
        }
        // A walked descendant costs its DN-index record and one lookup per index and root name.
        this.walkBound = records / (1 + (long) roots.size() * Math.max(1, oids.size()));
    }

    /**
     * The records of {@code oid}'s equality index whose key names an entry strictly below the root,
     * in no particular order. A key naming a DN under the root that no entry has is found by the scan
     * and not by the walk: callers resolve the names they act on.
     */
    public List<Named> below(String oid) {
        List<String> names = descendants(walkBound);
        if (names == null) {
            List<Named> found = scan(oid);
            if (found != null) {
                return found;
            }
            names = descendants(Long.MAX_VALUE);
        }
        return probe(oid, names);
    }

    /** DN-index records the walks read: 0 when every answer came from scanning the indexes. */
    public long walked() {
        return walked;
    }

    /** Index records the scans read. */
    public long scanned() {
        return scanned;
    }

    /** The descendants' relative names, or null when there are more than {@code bound}. */
    private List<String> descendants(long bound) {
        if (relative != null) {
            return relative;
        }
        if ((tooMany || bound == 0) && bound == walkBound) {
            tooMany = true;
            return null;
        }
        List<String> out = new ArrayList<>();
        List<Parent> level = List.of(new Parent(rootId, null));
        // Level by level, each level in ID order, through one cursor: most descendants are leaves, and
        // one look-up tells which entry at or above an ID is the next to have children, so the
        // leaves below it are passed over without a look-up each.
        try (ReadTxn.ChildWalk children = txn.childWalk()) {
            while (!level.isEmpty()) {
                List<Parent> next = new ArrayList<>();
                long nextParent = Long.MIN_VALUE;
                for (Parent parent : level) {
                    if (parent.id() > nextParent) {
                        nextParent = children.nextParent(parent.id());
                        if (nextParent == ReadTxn.NOT_FOUND) {
                            break; // no entry from here on has children
                        }
                    }
                    if (parent.id() != nextParent) {
                        continue;
                    }
                    children.forEachChild(parent.id(), (key, id) -> {
                        walked++;
                        if (out.size() >= bound) {
                            return false;
                        }
                        String rdn = new String(key, UTF_8);
                        String name = parent.name() == null ? rdn : rdn + "," + parent.name();
                        out.add(name);
                        next.add(new Parent(id, name));
                        return true;
                    });
                    if (out.size() >= bound && walked > out.size()) {
                        tooMany = true;
                        return null;
                    }
                }
                next.sort(Comparator.comparingLong(Parent::id));
                level = next;
            }
        }
        relative = out;
        return out;
    }

    private List<Named> probe(String oid, List<String> names) {
        List<Named> out = new ArrayList<>();
        IndexRef index = new IndexRef(oid, IndexKind.EQUALITY);
        // A merge of the sorted names with the index's keys through one cursor: a subtree of 10,000
        // entries is tens of thousands of names, most of them named by no record, and every name
        // below the next key the index holds is skipped without a lookup (one lookup each was ~3 µs
        // at 1,000,000 entries, a descent from the root for each).
        try (ReadTxn.IndexProbe lookups = txn.indexProbe()) {
            byte[] next = null;
            for (ProbeKey key : probeKeys(names)) {
                if (key.bytes().length >= MAX_KEY_BYTES) {
                    add(out, key, lookups.ids(index, key.bytes())); // stored cut: compare as stored
                    continue;
                }
                if (next == null || Arrays.compareUnsigned(key.bytes(), next) > 0) {
                    next = lookups.ceiling(index, key.bytes());
                    if (next == null) {
                        break; // nothing stored at or above: every later name is absent too
                    }
                }
                if (Arrays.equals(key.bytes(), next)) {
                    add(out, key, lookups.ids(index, key.bytes()));
                }
            }
        }
        return out;
    }

    private static void add(List<Named> out, ProbeKey key, IdSet ids) {
        for (int i = 0; i < ids.size(); i++) {
            out.add(new Named(key.name(), key.root(), ids.get(i)));
        }
    }

    /** The key of one descendant's name under one of the root's names. */
    private record ProbeKey(byte[] bytes, String name, int root) {}

    /** Every name under every root name as an index key, in the index's (unsigned byte) order; made once. */
    private List<ProbeKey> probeKeys(List<String> names) {
        if (probeKeys == null) {
            List<ProbeKey> keys = new ArrayList<>(names.size() * roots.size());
            for (String name : names) {
                for (int r = 0; r < roots.size(); r++) {
                    keys.add(new ProbeKey((name + "," + roots.get(r)).getBytes(UTF_8), name, r));
                }
            }
            keys.sort((a, b) -> Arrays.compareUnsigned(a.bytes(), b.bytes()));
            probeKeys = keys;
        }
        return probeKeys;
    }

    /** The records found by reading every key of the index; null when one was cut. */
    private List<Named> scan(String oid) {
        List<Named> out = new ArrayList<>();
        boolean[] cut = {false};
        txn.forEachIndexRecord(oid, IndexKind.EQUALITY, (key, id) -> {
            scanned++;
            if (key.length >= MAX_KEY_BYTES) {
                cut[0] = true;
            }
            for (int r = 0; r < suffixes.size(); r++) {
                byte[] suffix = suffixes.get(r);
                int nameLength = key.length - suffix.length;
                if (nameLength > 0 && endsWith(key, suffix) && !escaped(key, nameLength)) {
                    out.add(new Named(new String(key, 0, nameLength, UTF_8), r, id));
                }
            }
        });
        return cut[0] ? null : out;
    }

    private static boolean endsWith(byte[] key, byte[] suffix) {
        int offset = key.length - suffix.length;
        for (int i = 0; i < suffix.length; i++) {
            if (key[offset + i] != suffix[i]) {
                return false;
            }
        }
        return true;
    }

    /** Whether the comma at {@code at} is escaped: an odd run of backslashes before it. */
    private static boolean escaped(byte[] key, int at) {
        int backslashes = 0;
        for (int i = at - 1; i >= 0 && key[i] == '\\'; i--) {
            backslashes++;
        }
        return backslashes % 2 == 1;
    }

    /** A descendant still to be walked, by ID, with its name relative to the root. */
    private record Parent(long id, String name) {}
}
