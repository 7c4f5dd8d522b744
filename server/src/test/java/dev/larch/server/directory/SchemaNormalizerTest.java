package dev.larch.server.directory;

import java.util.ArrayList;
import java.util.List;

import dev.larch.schema.LarchSchema;
import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import org.apache.directory.api.ldap.model.entry.Attribute;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.entry.Value;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.schema.AttributeType;
import org.apache.directory.api.ldap.model.schema.SchemaManager;
import org.junit.jupiter.api.Test;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;

class SchemaNormalizerTest {
    private final SchemaManager schema = LarchSchema.standard();
    private final SchemaNormalizer normalizer = new SchemaNormalizer(schema);

    @Test
    void dnValuedAttributesOfAStoredEntryNormalizeAsTheirRuleDoes() throws LdapException {
        List<String> groups = List.of(
                "cn=Staff,ou=Groups,dc=example,dc=com",
                "CN = Staff , OU=groups,DC=Example,DC=COM",
                "cn=Sales\\2C East,ou=Groups,dc=example,dc=com");
        StoredEntry stored = stored(
                attribute("memberOf", groups),
                attribute("modifiersName", List.of("cn=Admin,dc=example,dc=com")),
                attribute("cn", List.of("A Person")));

        // Twice: the second conversion takes the parsed DNs from the cache and must agree.
        for (int round = 0; round < 2; round++) {
            Entry entry = normalizer.toEntry(stored(stored.attributes()));

            for (String name : List.of("memberOf", "modifiersName", "cn")) {
                assertSameValuesAsChecked(entry.get(name));
            }
            assertEquals(2, entry.get("memberOf").size(), "the first two spell one DN");
        }
    }

    @Test
    void aStoredDnValueThatNoLongerParsesKeepsWhatItsRuleMakesOfIt() throws LdapException {
        StoredAttribute odd = attribute("memberOf", List.of("not a dn"));
        StoredEntry stored = stored(odd, attribute("cn", List.of("x")));

        Entry entry = normalizer.toEntry(stored);

        assertEquals(
                new String(odd.normalized()[0], UTF_8),
                entry.get("memberOf").get().getNormalized());
    }

    private void assertSameValuesAsChecked(Attribute attribute) throws LdapException {
        AttributeType type = attribute.getAttributeType();
        for (Value value : attribute) {
            Value checked = new Value(type, value.getString());
            assertEquals(checked.getNormalized(), value.getNormalized(), value.getString());
            assertEquals(checked, value);
        }
    }

    private StoredAttribute attribute(String name, List<String> values) {
        AttributeType type = schema.getAttributeType(name);
        byte[][] bytes = new byte[values.size()][];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = values.get(i).getBytes(UTF_8);
        }
        return new StoredAttribute(type.getOid(), name, bytes, type, null);
    }

    private static StoredEntry stored(StoredAttribute... attributes) {
        return stored(List.of(attributes));
    }

    /** Fresh attribute objects, so that no normalized form computed before is reused. */
    private static StoredEntry stored(List<StoredAttribute> attributes) {
        List<StoredAttribute> copies = new ArrayList<>();
        for (StoredAttribute a : attributes) {
            copies.add(new StoredAttribute(a.oid(), a.userId(), a.values(), a.type(), null));
        }
        return new StoredEntry(7, 1, "cn=A Person,dc=example,dc=com", copies);
    }
}
