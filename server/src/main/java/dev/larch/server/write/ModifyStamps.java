package dev.larch.server.write;

import dev.larch.server.error.ResultCodeException;
import org.apache.directory.api.ldap.model.constants.SchemaConstants;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.name.Dn;
import org.apache.directory.api.ldap.model.schema.SchemaManager;

/**
 * Stamps a changed entry with {@code modifyTimestamp} and {@code modifiersName} (RFC 4512 section
 * 3.4), with values built once and shared ({@link StampValues}). Thread-safe.
 */
final class ModifyStamps {
    private final StampValues modifyTimestamp;
    private final StampValues modifiersName;

    ModifyStamps(SchemaManager schema) {
        this.modifyTimestamp = new StampValues(schema.getAttributeType(SchemaConstants.MODIFY_TIMESTAMP_AT));
        this.modifiersName = new StampValues(schema.getAttributeType(SchemaConstants.MODIFIERS_NAME_AT));
    }

    /** Replaces the entry's stamps: now, and {@code by} (none for an anonymous change). */
    void stamp(Entry entry, Dn by) {
        try {
            entry.put(modifyTimestamp.type(), modifyTimestamp.at(System.currentTimeMillis() / 1000));
            if (by.isEmpty()) {
                entry.removeAttributes(modifiersName.type());
            } else {
                entry.put(modifiersName.type(), modifiersName.naming(by.getName()));
            }
        } catch (LdapException e) {
            throw new ResultCodeException(ResultCodeEnum.OTHER, "cannot stamp the entry: " + e.getMessage());
        }
    }

    /** Modifiers whose values are kept (for tests of the bound). */
    int modifiersKept() {
        return modifiersName.namesKept();
    }
}
