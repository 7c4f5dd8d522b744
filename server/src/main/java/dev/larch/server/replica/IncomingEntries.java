package dev.larch.server.replica;

import java.util.Arrays;

import dev.larch.server.csn.Csn;
import dev.larch.server.directory.Directory;
import dev.larch.server.directory.SchemaChecker;
import dev.larch.server.directory.SchemaNormalizer;
import dev.larch.server.entry.EntryUuids;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.search.ResultEntries;
import org.apache.directory.api.ldap.model.constants.SchemaConstants;
import org.apache.directory.api.ldap.model.entry.Attribute;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.entry.Value;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.name.Dn;
import org.apache.directory.api.ldap.model.schema.AttributeType;

/**
 * Turns an entry as a provider sent it into an {@link IncomingEntry}: the attributes made
 * schema-aware (an attribute or value the local schema does not accept fails), the computed
 * operational attributes dropped ({@link ResultEntries#COMPUTED_OIDS}: memberOf is computed here from the groups), the stamps kept as sent, the entry checked against the
 * local schema as an add would be. Access control and no-user-modification do not apply: the
 * provider wrote the entry, this server keeps a copy.
 *
 * <p>Thread-safe (reads the schema only).
 */
final class IncomingEntries {
    private final Directory directory;
    private final SchemaNormalizer schema;
    private final SchemaChecker checker;
    private final AttributeType entryUuid;
    private final AttributeType entryCsn;
    private final AttributeType structuralObjectClass;

    IncomingEntries(Directory directory, SchemaChecker checker) {
        this.directory = directory;
        this.schema = directory.schemaNormalizer();
        this.checker = checker;
        this.entryUuid = schema.schema().getAttributeType(SchemaConstants.ENTRY_UUID_AT);
        this.entryCsn = schema.schema().getAttributeType(SchemaConstants.ENTRY_CSN_AT);
        this.structuralObjectClass = schema.schema().getAttributeType(SchemaConstants.STRUCTURAL_OBJECT_CLASS_AT);
    }

    /**
     * @param uuid the UUID of the Sync State control, 16 bytes
     * @throws ResultCodeException saying which entry and what is wrong: an attribute or value the
     *     schema refuses, an entry outside the naming context, an entryUUID other than the control's, no
     *     entryCSN (the provider must send operational attributes: {@code attrs="*,+"})
     */
    IncomingEntry prepare(byte[] uuid, Entry sent) {
        String name = sent.getDn() == null ? "" : sent.getDn().getName();
        try {
            Dn dn = schema.dn(name);
            if (!directory.holds(dn)) {
                throw new ResultCodeException(
                        ResultCodeEnum.NO_SUCH_OBJECT,
                        "it lies outside this server's naming context "
                                + directory.suffix().getName());
            }
            Entry entry = schema.fromClient(dn, sent);
            // Computed as each server reads its entries (memberOf from its own groups): never stored.
            for (String computed : ResultEntries.COMPUTED_OIDS) {
                entry.removeAttributes(computed);
            }
            checkUuid(entry, uuid);
            Csn csn = csnOf(entry);
            // Checked as an add would be (the check follows the superclasses itself), but stored with the
            // object classes as sent: slapd stores no implied "top", and a replica must hold what its
            // provider holds. The structural class is among the classes named: a superclass of a
            // structural class is never more derived, and no auxiliary or abstract class has a structural
            // superclass.
            checker.check(entry);
            if (!entry.containsAttribute(structuralObjectClass)) {
                String structural = checker.structuralClass(entry);
                if (structural != null) {
                    entry.put(structuralObjectClass, new Value(structuralObjectClass, structural));
                }
            }
            return new IncomingEntry(entry, uuid.clone(), csn);
        } catch (ResultCodeException e) {
            throw new ResultCodeException(
                    e.code(), "the provider's entry \"" + name + "\" cannot be stored: " + e.getMessage());
        } catch (LdapException | IllegalArgumentException e) {
            throw new ResultCodeException(
                    ResultCodeEnum.OTHER, "the provider's entry \"" + name + "\" cannot be stored: " + e.getMessage());
        }
    }

    private void checkUuid(Entry entry, byte[] uuid) throws LdapException {
        Attribute values = entry.get(entryUuid);
        if (values == null) {
            entry.put(entryUuid, new Value(entryUuid, EntryUuids.toText(uuid)));
            return;
        }
        if (values.size() != 1 || !Arrays.equals(EntryUuids.toBytes(values.get().getString()), uuid)) {
            throw new ResultCodeException(
                    ResultCodeEnum.CONSTRAINT_VIOLATION,
                    "its entryUUID " + values.get().getString() + " is not the Sync State control's "
                            + EntryUuids.toText(uuid));
        }
    }

    private Csn csnOf(Entry entry) {
        Attribute values = entry.get(entryCsn);
        if (values == null || values.size() != 1) {
            throw new ResultCodeException(
                    ResultCodeEnum.CONSTRAINT_VIOLATION,
                    "it carries " + (values == null ? "no" : values.size()) + " entryCSN values, not one"
                            + " (the provider must send operational attributes: attrs=\"*,+\")");
        }
        return Csn.parse(values.get().getString());
    }
}
