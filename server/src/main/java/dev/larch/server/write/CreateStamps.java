package dev.larch.server.write;

import java.util.UUID;

import dev.larch.server.error.ResultCodeException;
import org.apache.directory.api.ldap.model.constants.SchemaConstants;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.entry.Value;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.name.Dn;
import org.apache.directory.api.ldap.model.schema.AttributeType;
import org.apache.directory.api.ldap.model.schema.SchemaManager;

/**
 * Stamps the operational attributes the server maintains on a new entry (RFC 4512 section 3.4, RFC
 * 4530): creation and modification time and name, and an entryUUID. An attribute the entry already
 * holds is kept (an imported entry brings its own, so that an export imports back unchanged).
 * Times and names are shared values ({@link StampValues}). Thread-safe.
 */
final class CreateStamps {
    private final StampValues createTimestamp;
    private final StampValues modifyTimestamp;
    private final StampValues creatorsName;
    private final StampValues modifiersName;
    private final AttributeType entryUuid;
    private final AttributeType structuralObjectClass;

    CreateStamps(SchemaManager schema) {
        this.createTimestamp = new StampValues(schema.getAttributeType(SchemaConstants.CREATE_TIMESTAMP_AT));
        this.modifyTimestamp = new StampValues(schema.getAttributeType(SchemaConstants.MODIFY_TIMESTAMP_AT));
        this.creatorsName = new StampValues(schema.getAttributeType(SchemaConstants.CREATORS_NAME_AT));
        this.modifiersName = new StampValues(schema.getAttributeType(SchemaConstants.MODIFIERS_NAME_AT));
        this.entryUuid = schema.getAttributeType(SchemaConstants.ENTRY_UUID_AT);
        this.structuralObjectClass = schema.getAttributeType(SchemaConstants.STRUCTURAL_OBJECT_CLASS_AT);
    }

    /**
     * Records the entry's structural object class ({@code structuralObjectClass}, X.501), as slapd
     * does and its consumers expect with {@code +}, unless the entry brings one (an import).
     */
    void stampStructuralClass(Entry entry, String structural) {
        if (structural == null || entry.containsAttribute(structuralObjectClass)) {
            return;
        }
        try {
            entry.put(structuralObjectClass, new Value(structuralObjectClass, structural));
        } catch (LdapException e) {
            throw new ResultCodeException(ResultCodeEnum.OTHER, "cannot stamp the entry: " + e.getMessage());
        }
    }

    /** Adds the stamps the entry lacks: now, {@code by} (none when empty), a new UUID. */
    void stamp(Entry entry, Dn by) {
        try {
            long now = System.currentTimeMillis() / 1000;
            if (!entry.containsAttribute(createTimestamp.type())) {
                entry.put(createTimestamp.type(), createTimestamp.at(now));
            }
            if (!entry.containsAttribute(modifyTimestamp.type())) {
                entry.put(modifyTimestamp.type(), modifyTimestamp.at(now));
            }
            if (!by.isEmpty()) {
                String name = by.getName();
                if (!entry.containsAttribute(creatorsName.type())) {
                    entry.put(creatorsName.type(), creatorsName.naming(name));
                }
                if (!entry.containsAttribute(modifiersName.type())) {
                    entry.put(modifiersName.type(), modifiersName.naming(name));
                }
            }
            if (!entry.containsAttribute(entryUuid)) {
                entry.put(entryUuid, new Value(entryUuid, UUID.randomUUID().toString()));
            }
        } catch (LdapException e) {
            throw new ResultCodeException(ResultCodeEnum.OTHER, "cannot stamp the entry: " + e.getMessage());
        }
    }
}
