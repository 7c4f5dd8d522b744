package dev.larch.server.directory;

import java.util.List;

import dev.larch.schema.LarchSchema;
import org.apache.directory.api.ldap.model.entry.Value;
import org.apache.directory.api.ldap.model.exception.LdapInvalidAttributeValueException;
import org.apache.directory.api.ldap.model.schema.AttributeType;
import org.apache.directory.api.ldap.model.schema.SchemaManager;
import org.junit.jupiter.api.Test;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StoredValuesTest {
    private final SchemaManager schema = LarchSchema.standard();

    private record Case(String attribute, String value) {}

    /** One value of each syntax the modify path meets: DN, telephone, time, directory string, OID, IA5, UUID. */
    private static final List<Case> CASES = List.of(
            new Case("modifiersName", "CN=Admin , dc=Example,dc=com"),
            new Case("manager", "uid=jdoe,ou=People,dc=example,dc=com"),
            new Case("telephoneNumber", "+1 555 0100"),
            new Case("modifyTimestamp", "20261125074500Z"),
            new Case("cn", "  John   Doe "),
            new Case("objectClass", "inetOrgPerson"),
            new Case("mail", "John.Doe@Example.COM"),
            new Case("description", "é, ü and 漢字"),
            new Case("entryUUID", "8f4c1a9e-2d33-4c8e-9b4a-6f1d2e3c4b5a"));

    @Test
    void aStoredValueEqualsTheCheckedConstructorsFieldByField() throws LdapInvalidAttributeValueException {
        for (Case c : CASES) {
            AttributeType type = schema.getAttributeType(c.attribute());
            Value checked = new Value(type, c.value());
            Value stored = StoredValues.humanReadable(type, c.value().getBytes(UTF_8), checked.getNormalized());
            String what = c.attribute() + ": " + c.value();
            assertEquals(checked.getString(), stored.getString(), what);
            assertEquals(checked.getNormalized(), stored.getNormalized(), what);
            assertArrayEquals(checked.getBytes(), stored.getBytes(), what);
            assertEquals(checked.isHumanReadable(), stored.isHumanReadable(), what);
            assertSame(type, stored.getAttributeType(), what);
            assertEquals(checked, stored, what);
            assertEquals(checked.hashCode(), stored.hashCode(), what);
        }
    }

    @Test
    void valuesWithDifferentNormalizedFormsDiffer() throws LdapInvalidAttributeValueException {
        AttributeType cn = schema.getAttributeType("cn");
        Value a = StoredValues.humanReadable(cn, "Ann".getBytes(UTF_8), "ann");
        Value b = StoredValues.humanReadable(cn, "Bob".getBytes(UTF_8), "bob");
        assertNotEquals(a, b);
        assertEquals(new Value(cn, "ANN"), a, "matches by its normalized form");
    }

    @Test
    void noNormalizedFormIsKeptAsNone() {
        Value v = StoredValues.humanReadable(schema.getAttributeType("cn"), "x".getBytes(UTF_8), null);
        assertNull(v.getNormalized());
        assertEquals("x", v.getString());
    }

    /** The point of it: what was checked when written is not checked again (the constructor refuses this one). */
    @Test
    void theSyntaxIsNotCheckedAgain() {
        AttributeType phone = schema.getAttributeType("telephoneNumber");
        assertThrows(LdapInvalidAttributeValueException.class, () -> new Value(phone, "no digits at all!"));
        Value v = StoredValues.humanReadable(phone, "no digits at all!".getBytes(UTF_8), "no digits at all!");
        assertTrue(v.isHumanReadable());
        assertEquals("no digits at all!", v.getString());
    }
}
