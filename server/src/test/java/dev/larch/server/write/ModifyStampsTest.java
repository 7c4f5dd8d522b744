package dev.larch.server.write;

import dev.larch.schema.LarchSchema;
import org.apache.directory.api.ldap.model.entry.DefaultEntry;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.entry.Value;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.name.Dn;
import org.apache.directory.api.ldap.model.schema.SchemaManager;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ModifyStampsTest {
    private final SchemaManager schema = LarchSchema.standard();
    private final ModifyStamps stamps = new ModifyStamps(schema);

    @Test
    void replacesBothStampsWithNowAndTheModifier() throws LdapException {
        Entry entry = stamped("20000101000000Z", "cn=old,dc=example,dc=com");
        long before = System.currentTimeMillis() / 1000;

        stamps.stamp(entry, new Dn(schema, "cn=Admin,dc=example,dc=com"));

        long after = System.currentTimeMillis() / 1000;
        String time = entry.get("modifyTimestamp").getString();
        assertTrue(
                time.equals(Timestamps.format(before)) || time.equals(Timestamps.format(after)),
                time + " is not the current second");
        assertEquals(1, entry.get("modifyTimestamp").size());
        assertEquals(1, entry.get("modifiersName").size());
        assertEquals("cn=Admin,dc=example,dc=com", entry.get("modifiersName").getString());
        // Normalized as a value built for the entry would be: searches and indexes compare that form.
        assertEquals(
                new Value(schema.getAttributeType("modifiersName"), "cn=Admin,dc=example,dc=com").getNormalized(),
                entry.get("modifiersName").get().getNormalized());
    }

    @Test
    void anAnonymousChangeLeavesNoModifiersName() throws LdapException {
        Entry entry = stamped("20000101000000Z", "cn=old,dc=example,dc=com");

        stamps.stamp(entry, Dn.EMPTY_DN);

        assertNull(entry.get("modifiersName"));
        assertEquals(1, entry.get("modifyTimestamp").size());
    }

    @Test
    void keepsNoMoreModifiersThanItsBound() throws LdapException {
        Entry entry = stamped("20000101000000Z", "cn=old,dc=example,dc=com");
        for (int i = 0; i <= StampValues.MAX_NAMES; i++) {
            Dn by = new Dn(schema, "uid=user" + i + ",dc=example,dc=com");

            stamps.stamp(entry, by);

            assertEquals(by.getName(), entry.get("modifiersName").getString());
            assertTrue(stamps.modifiersKept() <= StampValues.MAX_NAMES);
        }
    }

    @Test
    void aModifierWithALongDnIsStampedButNotKept() throws LdapException {
        Entry entry = stamped("20000101000000Z", "cn=old,dc=example,dc=com");
        Dn by = new Dn(schema, "cn=" + "x".repeat(StampValues.MAX_CACHED_NAME_CHARS) + ",dc=example,dc=com");

        stamps.stamp(entry, by);

        assertEquals(by.getName(), entry.get("modifiersName").getString());
        assertEquals(0, stamps.modifiersKept());
    }

    private Entry stamped(String time, String modifier) throws LdapException {
        return new DefaultEntry(
                schema,
                "cn=a,dc=example,dc=com",
                "objectClass: person",
                "cn: a",
                "sn: b",
                "modifyTimestamp: " + time,
                "modifiersName: " + modifier);
    }
}
