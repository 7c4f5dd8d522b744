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
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CreateStampsTest {
    private final SchemaManager schema = LarchSchema.standard();
    private final CreateStamps stamps = new CreateStamps(schema);

    @Test
    void aNewEntryGetsTimesNamesAndAUuid() throws LdapException {
        Entry entry = person("a");
        long before = System.currentTimeMillis() / 1000;

        stamps.stamp(entry, new Dn(schema, "cn=Admin,dc=example,dc=com"));

        long after = System.currentTimeMillis() / 1000;
        for (String time : new String[] {"createTimestamp", "modifyTimestamp"}) {
            String value = entry.get(time).getString();
            assertTrue(
                    value.equals(Timestamps.format(before)) || value.equals(Timestamps.format(after)),
                    time + " " + value + " is not the current second");
        }
        assertEquals("cn=Admin,dc=example,dc=com", entry.get("creatorsName").getString());
        assertEquals("cn=Admin,dc=example,dc=com", entry.get("modifiersName").getString());
        // Normalized as a value built for the entry would be: searches and indexes compare that form.
        assertEquals(
                new Value(schema.getAttributeType("creatorsName"), "cn=Admin,dc=example,dc=com").getNormalized(),
                entry.get("creatorsName").get().getNormalized());
        assertEquals(36, entry.get("entryUUID").getString().length());
    }

    @Test
    void stampsTheEntryBringsAreKeptAndAnEmptyCreatorNamesNoOne() throws LdapException {
        Entry imported = person("b");
        imported.add("createTimestamp", "20000101000000Z");
        imported.add("entryUUID", "597ae2f6-16a6-1027-98f4-d28b5365dc14");

        stamps.stamp(imported, Dn.EMPTY_DN);

        assertEquals("20000101000000Z", imported.get("createTimestamp").getString());
        assertEquals(
                "597ae2f6-16a6-1027-98f4-d28b5365dc14",
                imported.get("entryUUID").getString());
        assertEquals(1, imported.get("modifyTimestamp").size());
        assertNull(imported.get("creatorsName"));
        assertNull(imported.get("modifiersName"));
    }

    @Test
    void everyEntryGetsAUuidOfItsOwn() throws LdapException {
        Entry first = person("c");
        Entry second = person("d");

        stamps.stamp(first, Dn.EMPTY_DN);
        stamps.stamp(second, Dn.EMPTY_DN);

        assertNotEquals(
                first.get("entryUUID").getString(), second.get("entryUUID").getString());
    }

    private Entry person(String cn) throws LdapException {
        return new DefaultEntry(schema, "cn=" + cn + ",dc=example,dc=com", "objectClass: person", "cn: " + cn, "sn: x");
    }
}
