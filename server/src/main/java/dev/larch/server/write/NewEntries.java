package dev.larch.server.write;

import dev.larch.server.auth.policy.PolicyAttributes;
import dev.larch.server.directory.Directory;
import dev.larch.server.directory.SchemaChecker;
import dev.larch.server.directory.SchemaNormalizer;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.store.DnTree;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.store.WriteTxn;
import org.apache.directory.api.ldap.model.entry.Attribute;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.name.Dn;
import org.apache.directory.api.ldap.model.schema.AttributeType;

/**
 * Validates and inserts new entries; shared by the add operation and the LDIF importer so both
 * enforce the same rules.
 */
public final class NewEntries {
    private final Directory directory;
    private final SchemaNormalizer schemaNormalizer;
    private final SchemaChecker checker;
    private final CreateStamps stamps;

    public NewEntries(Directory directory, SchemaChecker checker) {
        this.directory = directory;
        this.schemaNormalizer = directory.schemaNormalizer();
        this.checker = checker;
        this.stamps = new CreateStamps(schemaNormalizer.schema());
    }

    /**
     * A schema-aware, checked entry ready to insert.
     *
     * @param trusted true for an import, which may carry server-maintained attributes
     *     (timestamps, entryUUID) so that an export imports back unchanged
     * @param creator recorded as creatorsName (empty for imports)
     */
    public Entry prepare(Dn dn, Entry clientEntry, boolean trusted, Dn creator) {
        return prepare(dn, clientEntry, trusted, creator, false);
    }

    /**
     * {@link #prepare(Dn, Entry, boolean, Dn)}, where {@code admin} lets the administrator set the
     * password policy attributes an operator needs ({@link PolicyAttributes#adminWritable}), such as
     * {@code pwdPolicySubentry}.
     */
    public Entry prepare(Dn dn, Entry clientEntry, boolean trusted, Dn creator, boolean admin) {
        Entry entry = schemaNormalizer.fromClient(dn, clientEntry);
        if (!trusted) {
            for (Attribute a : entry) {
                AttributeType type = a.getAttributeType();
                if (!type.isUserModifiable() && !(admin && PolicyAttributes.adminWritable(type))) {
                    throw new ResultCodeException(
                            ResultCodeEnum.CONSTRAINT_VIOLATION, a.getUpId() + ": no user modification allowed");
                }
            }
        }
        stamps.stamp(entry, creator);
        checker.addSuperclasses(entry);
        checker.check(entry);
        stamps.stampStructuralClass(entry, checker.structuralClass(entry));
        return entry;
    }

    /** Inserts a prepared entry; noSuchObject without its parent, entryAlreadyExists on a clash. */
    public StoredEntry insert(WriteTxn txn, Entry entry) {
        Dn dn = entry.getDn();
        if (!directory.holds(dn)) {
            throw new ResultCodeException(
                    ResultCodeEnum.NO_SUCH_OBJECT,
                    "no naming context holds " + dn.getName() + " (the suffix is "
                            + directory.suffix().getName() + ")");
        }
        if (directory.resolve(txn, dn) != ReadTxn.NOT_FOUND) {
            // RFC 4511 4.1.9: matchedDN only accompanies name errors, so none here.
            throw new ResultCodeException(ResultCodeEnum.ENTRY_ALREADY_EXISTS, "entry already exists: " + dn.getName());
        }
        long parentId = DnTree.NO_PARENT;
        if (!dn.equals(directory.suffix())) {
            parentId = directory.resolve(txn, dn.getParent());
            if (parentId == ReadTxn.NOT_FOUND) {
                ResultCodeException missing = directory.noSuchObject(txn, dn.getParent());
                throw new ResultCodeException(
                        ResultCodeEnum.NO_SUCH_OBJECT,
                        "parent entry does not exist: " + dn.getParent().getName(),
                        missing.matchedDn());
            }
        }
        return directory.insert(txn, parentId, entry);
    }
}
