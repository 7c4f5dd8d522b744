package dev.larch.server.directory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import dev.larch.config.IndexKind;
import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.store.DnKeys;
import dev.larch.server.store.IndexKeys;
import dev.larch.server.store.ReadTxn;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * The records of equality indexes of DN-valued attributes whose value names an entry strictly below
 * one subtree root, under any of a few names of that root (its DN before and after a modify DN):
 * what a rename must update besides the renamed entry, found without reading the descendants.
 *
 * <p>Such an index keys a DN by its RDNs in reverse order ({@link DnKeys}), so the values below a
 * root are the keys starting with the root's key and a comma: one range read per index and root
 * name, as long as the records it holds, whatever the subtree's size. A key cut to the key size
 * limit no longer spells its value: the entry holding it is read, and its values of the attribute
 * below the root are taken from it.
 *
 * <p>Not thread-safe; lives inside the caller's transaction.
 */
public final class SubtreeNames {
    /**
     * One index record naming an entry below the root.
     *
     * @param relativeName the named entry's normalized DN without the root's: {@code uid=a,ou=b}
     * @param root which of the root's names the record's value ends with, as the constructor listed them
     * @param id the record's entry ID (the entry holding the value)
     */
    public record Named(String relativeName, int root, long id) {}

    private final ReadTxn txn;
    private final Directory directory;
    private final List<String> roots;
    /** Index records read by the range reads, for tests and monitoring. */
    private long read;
    /** Entries read because a key in a range was cut. */
    private long loaded;

    /**
     * @param rootNames the root's normalized DNs ({@code Dn.getNormName()}) a value may end with
     */
    public SubtreeNames(ReadTxn txn, Directory directory, List<String> rootNames) {
        this.txn = txn;
        this.directory = directory;
        this.roots = List.copyOf(rootNames);
    }

    /**
     * The records of {@code oid}'s equality index (the attribute must have one, of a DN syntax)
     * whose value names an entry strictly below the root, in no particular order. A value naming a
     * DN under the root that no entry has is found too: callers resolve the names they act on.
     */
    public List<Named> below(String oid) {
        List<Named> out = new ArrayList<>();
        for (int r = 0; r < roots.size(); r++) {
            byte[] prefix = DnKeys.prefixBelow(roots.get(r));
            List<Long> cut = new ArrayList<>();
            int root = r;
            txn.forEachIndexRecordWithPrefix(oid, IndexKind.EQUALITY, prefix, (key, id) -> {
                read++;
                if (key.length >= IndexKeys.MAX_KEY_BYTES) {
                    cut.add(id); // the value may go on past the key: read it from its entry
                } else {
                    byte[] upward = Arrays.copyOfRange(key, prefix.length, key.length);
                    out.add(new Named(new String(DnKeys.reverse(upward), UTF_8), root, id));
                }
            });
            for (long id : cut.stream().distinct().toList()) {
                addCut(out, oid, root, id);
            }
        }
        return out;
    }

    /** Index records the range reads visited. */
    public long read() {
        return read;
    }

    /** Entries read for their values because their index key was cut. */
    public long loaded() {
        return loaded;
    }

    /** The values of entry {@code id}'s attribute {@code oid} too long for a key, below root {@code r}. */
    private void addCut(List<Named> out, String oid, int r, long id) {
        StoredEntry entry = directory.load(txn, id);
        StoredAttribute attribute = entry == null ? null : entry.attribute(oid);
        loaded++;
        if (attribute == null) {
            return;
        }
        byte[] suffix = ("," + roots.get(r)).getBytes(UTF_8);
        for (byte[] value : attribute.normalized()) {
            int nameLength = value.length - suffix.length;
            if (value.length >= IndexKeys.MAX_KEY_BYTES
                    && nameLength > 0
                    && endsWith(value, suffix)
                    && !escaped(value, nameLength)) {
                out.add(new Named(new String(value, 0, nameLength, UTF_8), r, id));
            }
        }
    }

    private static boolean endsWith(byte[] value, byte[] suffix) {
        int offset = value.length - suffix.length;
        for (int i = 0; i < suffix.length; i++) {
            if (value[offset + i] != suffix[i]) {
                return false;
            }
        }
        return true;
    }

    /** Whether the comma at {@code at} is escaped: an odd run of backslashes before it. */
    private static boolean escaped(byte[] value, int at) {
        int backslashes = 0;
        for (int i = at - 1; i >= 0 && value[i] == '\\'; i--) {
            backslashes++;
        }
        return backslashes % 2 == 1;
    }
}
