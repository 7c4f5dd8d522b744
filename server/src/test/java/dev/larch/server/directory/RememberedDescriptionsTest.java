package dev.larch.server.directory;

import dev.larch.schema.LarchSchema;
import org.apache.directory.api.ldap.model.schema.SchemaManager;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/** The memory answers as the schema does, and clients cannot grow it past its bounds. */
class RememberedDescriptionsTest {
    private static final SchemaManager SCHEMA = LarchSchema.standard();

    @Test
    void aRememberedDescriptionNamesTheTypeTheSchemaNames() {
        RememberedDescriptions descriptions = new RememberedDescriptions(SCHEMA);
        for (int round = 0; round < 2; round++) {
            assertSame(SCHEMA.getAttributeType("uid"), descriptions.typeOrNull("UID"));
            assertSame(SCHEMA.getAttributeType("cn"), descriptions.typeOrNull("2.5.4.3"));
            assertNull(descriptions.typeOrNull("cn;lang-en"), "options name no type here");
            assertNull(descriptions.typeOrNull("noSuchAttribute"));
            assertNull(descriptions.typeOrNull("caf\u00e9"), "outside the alphabet: never asked");
            assertNull(descriptions.typeOrNull(null));
        }
        assertEquals(2, descriptions.remembered(), "only the two that name a type");
    }

    @Test
    void caseVariantsOfRealNamesStopAtTheBound() {
        RememberedDescriptions descriptions = new RememberedDescriptions(SCHEMA);
        // telephoneNumber has 15 letters: 32,768 case variants, each naming the type.
        String name = "telephoneNumber";
        for (int variant = 0; variant < 4 * RememberedDescriptions.MAX_REMEMBERED; variant++) {
            StringBuilder spelled = new StringBuilder();
            for (int i = 0; i < name.length(); i++) {
                char c = name.charAt(i);
                spelled.append((variant >> i & 1) == 1 ? Character.toUpperCase(c) : Character.toLowerCase(c));
            }
            assertSame(SCHEMA.getAttributeType(name), descriptions.typeOrNull(spelled.toString()));
        }
        assertEquals(RememberedDescriptions.MAX_REMEMBERED, descriptions.remembered());
    }
}
