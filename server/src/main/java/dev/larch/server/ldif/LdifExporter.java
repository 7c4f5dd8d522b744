package dev.larch.server.ldif;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;

import dev.larch.server.StoredDirectory;
import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.store.IdCursor;
import dev.larch.server.store.ReadTxn;
import org.apache.directory.api.ldap.model.entry.Attribute;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.ldif.LdifUtils;
import org.apache.directory.api.ldap.model.schema.AttributeType;
import org.apache.directory.api.util.Strings;

/**
 * Writes the tree as LDIF, parents before children, with every stored attribute (operational
 * ones included) so that importing the output rebuilds the same tree. The output is canonical:
 * in each entry objectClass comes first, then the other user attributes and then the operational
 * ones, each group by name; so exporting a re-imported export gives the same bytes.
 */
public final class LdifExporter {
    private static final int LINE_LENGTH = 76;
    private static final Comparator<Attribute> CANONICAL =
            Comparator.comparingInt(LdifExporter::group).thenComparing(a -> Strings.toLowerCaseAscii(a.getUpId()));

    private final StoredDirectory open;

    public LdifExporter(StoredDirectory open) {
        this.open = open;
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
                write(directory.schemaNormalizer().toEntry(entry), out);
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

    private static void write(Entry entry, Writer out) throws IOException {
        String dn = entry.getDn().getName();
        out.write(LdifUtils.stripLineToNChars(
                LdifUtils.isLDIFSafe(dn)
                        ? "dn: " + dn
                        : "dn:: " + Base64.getEncoder().encodeToString(dn.getBytes(StandardCharsets.UTF_8)),
                LINE_LENGTH));
        out.write('\n');
        List<Attribute> attributes = new ArrayList<>();
        entry.forEach(attributes::add);
        attributes.sort(CANONICAL);
        for (Attribute attribute : attributes) {
            out.write(LdifUtils.convertToLdif(attribute, LINE_LENGTH));
        }
        out.write('\n');
    }

    /** 0 for objectClass, 1 for other user attributes, 2 for operational attributes. */
    private static int group(Attribute attribute) {
        AttributeType type = attribute.getAttributeType();
        if (type == null) {
            return Strings.toLowerCaseAscii(attribute.getUpId()).equals("objectclass") ? 0 : 1;
        }
        if ("2.5.4.0".equals(type.getOid())) {
            return 0;
        }
        return type.isUser() ? 1 : 2;
    }
}
