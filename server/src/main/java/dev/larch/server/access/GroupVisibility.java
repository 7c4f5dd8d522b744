package dev.larch.server.access;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.store.ReadTxn;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * The {@code memberOf} values of entries as one client may see them: only those naming a group the
 * client may read. A filter on memberOf ({@code (memberOf=G)}, or the in-chain rule on it) is judged on
 * these values, so it cannot list the members of a group the client may not read; the values a
 * search returns are screened the same way ({@code dev.larch.server.search.ResultEntries}).
 *
 * <p>Each group is judged once per operation. Not thread-safe: one operation, one thread at a time,
 * within the decider's transaction.
 */
final class GroupVisibility {
    /** Most groups remembered; past it the memory starts over (bounded, like the decider's). */
    private static final int MAX_REMEMBERED = 4096;

    private final Decider decider;
    private final Directory directory;
    /** By the value's normalized form: whether the group it names exists and the client may read it. */
    private final Map<String, Boolean> readable = new HashMap<>();

    GroupVisibility(Decider decider, Directory directory) {
        this.decider = decider;
        this.directory = directory;
    }

    /** {@code entry} with only the memberOf values the client may see; the same instance when it sees them all. */
    StoredEntry screen(StoredEntry entry) {
        StoredAttribute memberOf = entry.attribute(Directory.MEMBER_OF_OID);
        if (memberOf == null) {
            return entry;
        }
        byte[][] values = memberOf.values();
        byte[][] normalized = memberOf.normalized();
        List<byte[]> keptValues = new ArrayList<>(values.length);
        List<byte[]> keptNormalized = new ArrayList<>(values.length);
        for (int i = 0; i < values.length; i++) {
            if (mayRead(values[i], normalized[i])) {
                keptValues.add(values[i]);
                keptNormalized.add(normalized[i]);
            }
        }
        if (keptValues.size() == values.length) {
            return entry;
        }
        List<StoredAttribute> attributes = new ArrayList<>(entry.attributes().size());
        for (StoredAttribute a : entry.attributes()) {
            if (a != memberOf) {
                attributes.add(a);
            } else if (!keptValues.isEmpty()) {
                attributes.add(new StoredAttribute(
                        a.oid(),
                        a.userId(),
                        keptValues.toArray(byte[][]::new),
                        a.type(),
                        keptNormalized.toArray(byte[][]::new)));
            }
        }
        return new StoredEntry(entry.id(), entry.parentId(), entry.dn(), List.copyOf(attributes));
    }

    private boolean mayRead(byte[] value, byte[] normalized) {
        String key = new String(normalized, UTF_8);
        Boolean known = readable.get(key);
        if (known == null) {
            known = judge(value);
            if (readable.size() >= MAX_REMEMBERED) {
                readable.clear();
            }
            readable.put(key, known);
        }
        return known;
    }

    private boolean judge(byte[] value) {
        ReadTxn txn = decider.txn();
        long id;
        try {
            id = directory.resolve(txn, directory.schemaNormalizer().dn(new String(value, UTF_8)));
        } catch (RuntimeException notADn) {
            return false;
        }
        StoredEntry group = id == ReadTxn.NOT_FOUND ? null : directory.load(txn, id);
        return group != null && (decider.decide(group).onEntry() & Rights.READ) != 0;
    }
}
