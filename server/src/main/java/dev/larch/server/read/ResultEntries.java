package dev.larch.server.read;

import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.search.EntryScreen;
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
final class ResultEntries {
    static final String HAS_SUBORDINATES = "2.5.18.9";
    static final String ENTRY_DN = "1.3.6.1.1.20";
    static final String SUBSCHEMA_SUBENTRY = "2.5.18.10";

    private final String subschemaDn;

    ResultEntries(String subschemaDn) {
        this.subschemaDn = subschemaDn;
    }

    /**
     * @param screen what the client may read of the entry
     * @param txn the search's transaction, for hasSubordinates; null for virtual entries
     */
    SearchResultEntry build(
            int messageId,
            StoredEntry stored,
            AttributeSelection selection,
            boolean typesOnly,
            EntryScreen screen,
            ReadTxn txn) {
        Entry entry = new DefaultEntry(new StoredDn(stored.dn()));
        for (StoredAttribute a : stored.attributes()) {
            if (selection.includes(a.oid(), a.type()) && screen.mayRead(stored, a.oid())) {
                add(entry, typesOnly ? new DefaultAttribute(a.userId()) : new DefaultAttribute(a.userId(), a.values()));
            }
        }
        if (txn != null) {
            if (selection.includesComputed(HAS_SUBORDINATES)) {
                add(entry, computed("hasSubordinates", typesOnly, txn.hasChildren(stored.id()) ? "TRUE" : "FALSE"));
            }
            if (selection.includesComputed(ENTRY_DN)) {
                add(entry, computed("entryDN", typesOnly, stored.dn()));
            }
            if (selection.includesComputed(SUBSCHEMA_SUBENTRY)) {
                add(entry, computed("subschemaSubentry", typesOnly, subschemaDn));
            }
        }
        SearchResultEntry response = new SearchResultEntryImpl(messageId);
        response.setEntry(entry);
        return response;
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
