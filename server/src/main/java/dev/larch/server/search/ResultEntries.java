package dev.larch.server.search;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.protocol.SelectedEntry;
import dev.larch.server.store.DnTree;
import dev.larch.server.store.IdCursor;
import dev.larch.server.store.ReadTxn;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * Builds the SearchResultEntry a client sees from a stored entry: the selected attributes under
 * the names the client's data used, only those the client may read, and the computed operational
 * attributes when asked for.
 */
public final class ResultEntries {
    static final String HAS_SUBORDINATES = "2.5.18.9";
    static final String ENTRY_DN = "1.3.6.1.1.20";
    static final String SUBSCHEMA_SUBENTRY = "2.5.18.10";
    static final String CONTEXT_CSN = "1.3.6.1.4.1.4203.666.1.25";

    /**
     * The OIDs of the operational attributes computed as an entry is read, never stored:
     * hasSubordinates, entryDN, subschemaSubentry, contextCSN (on the naming context's root) and
     * memberOf (stored, but computed by each server from its own groups). A replica drops them from
     * what its provider sends.
     */
    public static final Set<String> COMPUTED_OIDS =
            Set.of(HAS_SUBORDINATES, ENTRY_DN, SUBSCHEMA_SUBENTRY, CONTEXT_CSN, GroupGraph.MEMBER_OF_OID);

    private static final Filter ANY = new Filter.And(List.of());

    /** The subschema subentry's DN (RFC 4512 section 4.2), named by every entry's subschemaSubentry. */
    public static final String SUBSCHEMA_DN = "cn=Subschema";

    /** Resolves the groups memberOf names, to judge each for the client; null where no store is behind the entries. */
    private final Directory directory;

    /** @param directory resolves the groups memberOf names; null where no store is behind the entries */
    public ResultEntries(Directory directory) {
        this.directory = directory;
    }

    /**
     * @param screen what the client may read of the entry
     * @param txn the search's transaction, for hasSubordinates; null for virtual entries
     */
    public SelectedEntry build(
            int messageId,
            StoredEntry stored,
            AttributeSelection selection,
            boolean typesOnly,
            EntryScreen screen,
            ReadTxn txn) {
        SelectedEntry entry = new SelectedEntry(messageId, stored.dn());
        MatchedValues matched = typesOnly ? null : selection.values();
        // By index: of an entry decoded from the store only the attributes returned are made.
        for (int i = 0, n = stored.attributes().size(); i < n; i++) {
            if (!selection.includes(stored, i)) {
                continue;
            }
            String oid = stored.oidAt(i);
            if (GroupGraph.MEMBER_OF_OID.equals(oid)) {
                // Each group judged for the client below, never copied as stored.
                continue;
            }
            StoredAttribute a = stored.attributes().get(i);
            // No values: not an attribute (a store written before EntryCodec dropped such ones may hold one).
            if (a.size() > 0 && screen.mayRead(stored, oid)) {
                add(entry, a.userId(), typesOnly, matched == null ? a.values() : matched.matching(stored, a));
            }
        }
        if (txn != null) {
            if (selection.includesComputed(HAS_SUBORDINATES)) {
                computed(entry, "hasSubordinates", typesOnly, hasVisibleChild(stored, screen, txn) ? "TRUE" : "FALSE");
            }
            if (selection.includesComputed(ENTRY_DN)) {
                computed(entry, "entryDN", typesOnly, stored.dn());
            }
            if (selection.includesComputed(SUBSCHEMA_SUBENTRY)) {
                computed(entry, "subschemaSubentry", typesOnly, SUBSCHEMA_DN);
            }
            // The naming context's root carries the store's contextCSN, as slapd's does.
            if (stored.parentId() == DnTree.NO_PARENT
                    && selection.includesComputed(CONTEXT_CSN)
                    && screen.mayRead(stored, CONTEXT_CSN)) {
                List<byte[]> csns = txn.contextCsns();
                if (!csns.isEmpty()) {
                    add(entry, "contextCSN", typesOnly, csns.toArray(byte[][]::new));
                }
            }
            // Last: judging each group asks the screen about other entries than this one.
            if (directory != null
                    && selection.includesComputed(GroupGraph.MEMBER_OF_OID)
                    && screen.mayRead(stored, GroupGraph.MEMBER_OF_OID)) {
                byte[][] memberOf = memberOf(stored, screen, txn);
                if (memberOf.length > 0) {
                    add(entry, "memberOf", typesOnly, memberOf);
                }
            }
        }
        return entry;
    }

    /**
     * The stored memberOf values ({@code dev.larch.server.group.MemberOfMaintainer} keeps them: every
     * group holding the entry, nested groups followed) naming groups the client may see. Each group
     * is judged as a search would judge it, so a client learns nothing of groups it may not read;
     * the administrator sees every value without a group being read.
     */
    private byte[][] memberOf(StoredEntry stored, EntryScreen screen, ReadTxn txn) {
        StoredAttribute values = stored.attribute(GroupGraph.MEMBER_OF_OID);
        if (values == null) {
            return new byte[0][];
        }
        @SuppressWarnings("ReferenceEquality") // ALL is the one unrestricted screen
        boolean seesEverything = screen == EntryScreen.ALL;
        if (seesEverything) {
            return values.values();
        }
        List<byte[]> visible = new ArrayList<>(values.size());
        for (byte[] value : values.values()) {
            if (mayReadGroup(value, screen, txn)) {
                visible.add(value);
            }
        }
        return visible.toArray(byte[][]::new);
    }

    private boolean mayReadGroup(byte[] groupDn, EntryScreen screen, ReadTxn txn) {
        long id;
        try {
            id = directory.resolve(txn, directory.schemaNormalizer().dn(new String(groupDn, UTF_8)));
        } catch (RuntimeException notADn) {
            return false;
        }
        StoredEntry group = id == ReadTxn.NOT_FOUND ? null : directory.load(txn, id);
        return group != null && screen.evaluate(group, ANY) == Tri.TRUE;
    }

    /**
     * Whether the entry has a child the client may see: hidden children count for nobody but the
     * administrator, so hasSubordinates cannot reveal them. Stops at the first visible child; an
     * entry whose children are all hidden costs one decision per child.
     */
    private boolean hasVisibleChild(StoredEntry stored, EntryScreen screen, ReadTxn txn) {
        @SuppressWarnings("ReferenceEquality") // ALL is the one unrestricted screen
        boolean seesEverything = screen == EntryScreen.ALL;
        if (seesEverything || directory == null || !txn.hasChildren(stored.id())) {
            return txn.hasChildren(stored.id());
        }
        try (IdCursor children = txn.children(stored.id())) {
            for (long id = children.next(); id != ReadTxn.NOT_FOUND; id = children.next()) {
                StoredEntry child = directory.load(txn, id);
                if (child != null && screen.mayReadEntry(child)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static void computed(SelectedEntry entry, String name, boolean typesOnly, String value) {
        add(entry, name, typesOnly, new byte[][] {value.getBytes(UTF_8)});
    }

    /** An attribute all of whose values were screened out (matched values) is sent without values. */
    private static void add(SelectedEntry entry, String name, boolean typesOnly, byte[][] values) {
        if (typesOnly || values.length == 0) {
            entry.addType(name);
        } else {
            entry.add(name, values);
        }
    }
}
