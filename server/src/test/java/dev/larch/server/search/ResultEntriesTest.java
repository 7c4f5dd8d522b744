package dev.larch.server.search;

import java.util.ArrayList;
import java.util.List;

import dev.larch.schema.LarchSchema;
import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.protocol.SelectedEntry;
import org.apache.directory.api.ldap.model.schema.SchemaManager;
import org.junit.jupiter.api.Test;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;

class ResultEntriesTest {
    private static final SchemaManager SCHEMA = LarchSchema.standard();

    private static StoredAttribute attribute(String name, String... values) {
        byte[][] bytes = new byte[values.length][];
        for (int i = 0; i < values.length; i++) {
            bytes[i] = values[i].getBytes(UTF_8);
        }
        return new StoredAttribute(
                SCHEMA.getAttributeType(name).getOid(), name, bytes, SCHEMA.getAttributeType(name), null);
    }

    private static List<String> names(SelectedEntry entry) {
        List<String> names = new ArrayList<>();
        for (int a = 0; a < entry.size(); a++) {
            names.add(entry.name(a));
        }
        return names;
    }

    /**
     * A store written before the codec dropped value-less attributes may hold one (modifiersName, when
     * the schema race made its shared value binary): it is not sent, to clients or to a slapd consumer,
     * which crashes on an empty value set.
     */
    @Test
    void aStoredAttributeWithoutValuesIsNotSent() {
        StoredEntry stored = new StoredEntry(
                7,
                1,
                "ou=unit0,dc=example,dc=com",
                List.of(
                        attribute("objectClass", "organizationalUnit"),
                        attribute("ou", "unit0"),
                        attribute("modifiersName")));
        ResultEntries results = new ResultEntries(null);
        for (boolean typesOnly : new boolean[] {false, true}) {
            SelectedEntry entry = results.build(
                    2, stored, AttributeSelection.of(List.of("*", "+"), SCHEMA), typesOnly, EntryScreen.ALL, null);
            assertEquals(List.of("objectClass", "ou"), names(entry), "typesOnly " + typesOnly);
        }
    }
}
