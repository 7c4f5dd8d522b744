package dev.larch.server.search;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.store.DnTree;
import dev.larch.server.store.IdCursor;
import dev.larch.server.store.ReadTxn;
import org.apache.directory.api.ldap.model.entry.Attribute;
import org.apache.directory.api.ldap.model.entry.DefaultAttribute;
import org.apache.directory.api.ldap.model.entry.DefaultEntry;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.message.SearchResultEntry;
import org.apache.directory.api.ldap.model.message.SearchResultEntryImpl;

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
    public SearchResultEntry build(
            int messageId,
            StoredEntry stored,
            AttributeSelection selection,
            boolean typesOnly,
            EntryScreen screen,
            ReadTxn txn) {
        Entry entry = new DefaultEntry(new StoredDn(stored.dn()));
        MatchedValues matched = typesOnly ? null : selection.values();
        for (StoredAttribute a : stored.attributes()) {
            if (GroupGraph.MEMBER_OF_OID.equals(a.oid())) {
                continue; // each group judged for the client below, never copied as stored
            }
            if (selection.includes(a.oid(), a.type()) && screen.mayRead(stored, a.oid())) {
                byte[][] values = matched == null ? a.values() : matched.matching(stored, a);
                add(
                        entry,
                        typesOnly || values.length == 0
                                ? new DefaultAttribute(a.userId())
                                : new DefaultAttribute(a.userId(), values));
            }
        }
        if (txn != null) {
            if (selection.includesComputed(HAS_SUBORDINATES)) {
                add(
                        entry,
                        computed(
                                "hasSubordinates", typesOnly, hasVisibleChild(stored, screen, txn) ? "TRUE" : "FALSE"));
            }
            if (selection.includesComputed(ENTRY_DN)) {
                add(entry, computed("entryDN", typesOnly, stored.dn()));
            }
            if (selection.includesComputed(SUBSCHEMA_SUBENTRY)) {
                add(entry, computed("subschemaSubentry", typesOnly, SUBSCHEMA_DN));
            }
            // The naming context's root carries the store's contextCSN, as slapd's does.
            if (stored.parentId() == DnTree.NO_PARENT
                    && selection.includesComputed(CONTEXT_CSN)
                    && screen.mayRead(stored, CONTEXT_CSN)) {
                List<byte[]> csns = txn.contextCsns();
                if (!csns.isEmpty()) {
                    add(
                            entry,
                            typesOnly
                                    ? new DefaultAttribute("contextCSN")
                                    : new DefaultAttribute("contextCSN", csns.toArray(byte[][]::new)));
                }
            }
            // Last: judging each group asks the screen about other entries than this one.
            if (directory != null
                    && selection.includesComputed(GroupGraph.MEMBER_OF_OID)
                    && screen.mayRead(stored, GroupGraph.MEMBER_OF_OID)) {
                Attribute memberOf = memberOf(stored, typesOnly, screen, txn);
                if (memberOf != null) {
                    add(entry, memberOf);
                }
            }
        }
        SearchResultEntry response = new SearchResultEntryImpl(messageId);
        response.setEntry(entry);
        return response;
    }

    /**
     * The stored memberOf values ({@code dev.larch.server.group.MemberOfMaintainer} keeps them: every
     * group holding the entry, nested groups followed) naming groups the client may see; null when
     * there are none. Each group is judged as a search would judge it, so a client learns nothing
     * of groups it may not read; the administrator sees every value without a group being read.
     */
    private Attribute memberOf(StoredEntry stored, boolean typesOnly, EntryScreen screen, ReadTxn txn) {
        StoredAttribute values = stored.attribute(GroupGraph.MEMBER_OF_OID);
        if (values == null) {
            return null;
        }
        @SuppressWarnings("ReferenceEquality") // ALL is the one unrestricted screen
        boolean seesEverything = screen == EntryScreen.ALL;
        List<byte[]> visible = new ArrayList<>(values.size());
        for (byte[] value : values.values()) {
            if (seesEverything || mayReadGroup(value, screen, txn)) {
                visible.add(value);
            }
        }
        if (visible.isEmpty()) {
            return null;
        }
        return typesOnly
                ? new DefaultAttribute("memberOf")
                : new DefaultAttribute("memberOf", visible.toArray(byte[][]::new));
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

    private static Attribute computed(String name, boolean typesOnly, String value) {
        return typesOnly ? new DefaultAttribute(name) : new DefaultAttribute(name, value.getBytes(UTF_8));
    }

    private static void add(Entry entry, Attribute attribute) {
        try {
            entry.add(attribute);
        } catch (LdapException e) {
            throw new IllegalStateException(e);
        }
    }
}
