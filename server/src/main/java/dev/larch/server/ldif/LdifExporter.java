package dev.larch.server.ldif;

import java.io.IOException;
import java.io.Writer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Locale;

import dev.larch.server.OpenDirectory;
import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.store.IdCursor;
import dev.larch.server.store.ReadTxn;
import org.apache.directory.api.ldap.model.constants.SchemaConstants;
import org.apache.directory.api.ldap.model.entry.Attribute;
import org.apache.directory.api.ldap.model.entry.DefaultEntry;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.ldif.LdifUtils;
import org.apache.directory.api.ldap.model.schema.UsageEnum;

/**
 * Writes the tree as LDIF, parents before children, with every stored attribute (operational
 * ones included) so that importing the output rebuilds the same tree.
 */
public final class LdifExporter {
    private final OpenDirectory open;

    public LdifExporter(OpenDirectory open) {
        this.open = open;
    }

    /**
     * The entry with objectClass first, then user attributes, then operational ones, each group
     * by name: stored order follows hashing, and an export should be the same text every time.
     */
    private static Entry canonical(Entry entry) {
        List<Attribute> attributes = new ArrayList<>();
        entry.forEach(attributes::add);
        attributes.sort(Comparator
                .comparing((Attribute a) -> !SchemaConstants.OBJECT_CLASS_AT_OID.equals(a.getAttributeType().getOid()))
                .thenComparing(a -> a.getAttributeType().getUsage() != UsageEnum.USER_APPLICATIONS)
                .thenComparing(a -> a.getUpId().toLowerCase(Locale.ROOT)));
        Entry sorted = new DefaultEntry(entry.getDn());
        for (Attribute a : attributes) {
            try {
                sorted.add(a);
            } catch (LdapException e) {
                throw new IllegalStateException(e);
            }
        }
        return sorted;
    }

    /** Writes all entries to {@code out}; returns how many. Reads one consistent snapshot. */
    public long export(Writer out) throws IOException {
        Directory directory = open.directory();
        long count = 0;
        try (ReadTxn txn = open.store().read()) {
            long root = directory.resolve(txn, directory.suffix());
            if (root == ReadTxn.NOT_FOUND) {
                return 0;
            }
            Deque<Long> pending = new ArrayDeque<>();
            pending.push(root);
            while (!pending.isEmpty()) {
                long id = pending.pop();
                StoredEntry entry = directory.load(txn, id);
                out.write(LdifUtils.convertToLdif(canonical(directory.schemaEntries().toEntry(entry)), 76));
                out.write('\n');
                count++;
                Deque<Long> children = new ArrayDeque<>();
                try (IdCursor c = txn.children(id)) {
                    for (long child = c.next(); child != ReadTxn.NOT_FOUND; child = c.next()) {
                        children.push(child);
                    }
                }
                // Pushed in reverse so children are written in index order.
                while (!children.isEmpty()) {
                    pending.push(children.pop());
                }
            }
        }
        out.flush();
        return count;
    }
}
