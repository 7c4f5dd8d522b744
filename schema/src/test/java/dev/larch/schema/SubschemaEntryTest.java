package dev.larch.schema;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import org.apache.directory.api.ldap.model.entry.Attribute;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.entry.Value;
import org.apache.directory.api.ldap.model.schema.SchemaManager;
import org.apache.directory.api.ldap.model.schema.parsers.OpenLdapSchemaParser;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SubschemaEntryTest {
    private static final Instant LOADED = Instant.parse("2025-01-02T03:04:05Z");

    private final SchemaManager schema = LarchSchema.standard();
    private final Entry entry = SubschemaEntry.build(schema, "cn=Subschema", LOADED);

    @Test
    void isTheSubschemaSubentryClientsExpect() {
        assertEquals("cn=Subschema", entry.getDn().getName());
        for (String oc : List.of("top", "subentry", "subschema", "extensibleObject")) {
            assertTrue(entry.hasObjectClass(oc), oc);
        }
        assertTrue(entry.contains("cn", "Subschema"));
        assertTrue(entry.contains("createTimestamp", "20250102030405Z"));
        assertTrue(entry.contains("modifyTimestamp", "20250102030405Z"));
    }

    @Test
    void publishesEverySchemaElementAsAnOperationalAttribute() {
        assertEquals(
                schema.getAttributeTypeRegistry().size(),
                entry.get("attributeTypes").size());
        assertEquals(
                schema.getObjectClassRegistry().size(),
                entry.get("objectClasses").size());
        assertEquals(
                schema.getLdapSyntaxRegistry().size(), entry.get("ldapSyntaxes").size());
        assertEquals(
                schema.getMatchingRuleRegistry().size(),
                entry.get("matchingRules").size());
        assertTrue(entry.get("matchingRuleUse").size() > 10);
        for (String id : List.of(
                "attributeTypes",
                "objectClasses",
                "ldapSyntaxes",
                "matchingRules",
                "matchingRuleUse",
                "createTimestamp",
                "modifyTimestamp")) {
            assertTrue(entry.get(id).getAttributeType().isOperational(), id);
        }
    }

    @Test
    void descriptionsAreRfc4512AndParseBack() throws Exception {
        OpenLdapSchemaParser parser = new OpenLdapSchemaParser();
        for (Value value : entry.get("attributeTypes")) {
            assertNotNull(parser.parseAttributeType(value.getString()), value.getString());
        }
        for (Value value : entry.get("objectClasses")) {
            assertNotNull(parser.parseObjectClass(value.getString()), value.getString());
        }
        for (Value value : entry.get("matchingRules")) {
            assertNotNull(parser.parseMatchingRule(value.getString()), value.getString());
        }
        for (Value value : entry.get("ldapSyntaxes")) {
            assertNotNull(parser.parseLdapSyntax(value.getString()), value.getString());
        }
        for (Value value : entry.get("matchingRuleUse")) {
            assertNotNull(parser.parseMatchingRuleUse(value.getString()), value.getString());
        }
        String cn = find(entry.get("attributeTypes"), "( 2.5.4.3 ");
        assertTrue(cn.startsWith("( 2.5.4.3 NAME ( 'cn' 'commonName' )"), cn);
        assertTrue(cn.contains("SUP name"), cn);
        String person = find(entry.get("objectClasses"), "( 2.16.840.1.113730.3.2.2 ");
        assertTrue(person.contains("NAME 'inetOrgPerson'") && person.contains("STRUCTURAL"), person);
    }

    @Test
    void matchingRuleUseListsAttributesARuleAppliesTo() {
        String caseIgnore = find(entry.get("matchingRuleUse"), "( 2.5.13.2 ");
        assertTrue(caseIgnore.contains("NAME 'caseIgnoreMatch'"), caseIgnore);
        assertTrue(
                caseIgnore.contains(" cn ") || caseIgnore.contains("'cn'") || caseIgnore.contains("$ cn "), caseIgnore);
        for (Value value : entry.get("matchingRuleUse")) {
            assertTrue(value.getString().contains("APPLIES"), value.getString());
        }
    }

    @Test
    void userSchemaAppearsWithItsSchemaName() throws SchemaLoadException {
        SchemaManager withExample = LarchSchema.load(List.of(Path.of("examples/larch-example.schema")));
        Entry e = SubschemaEntry.build(withExample, "cn=Subschema");
        String badge = find(e.get("attributeTypes"), "( 1.3.6.1.4.1.99999.1.1.1 ");
        assertTrue(badge.contains("NAME 'larchBadgeId'") && badge.contains("X-SCHEMA 'larch-example'"), badge);
        assertNotNull(find(e.get("objectClasses"), "( 1.3.6.1.4.1.99999.1.2.1 "));
    }

    @Test
    void rejectsADnThatDoesNotParse() {
        assertThrows(IllegalArgumentException.class, () -> SubschemaEntry.build(schema, "not a dn"));
    }

    private static String find(Attribute attribute, String prefix) {
        for (Value value : attribute) {
            if (value.getString().startsWith(prefix)) {
                return value.getString();
            }
        }
        throw new AssertionError("no value starting with " + prefix + " in " + attribute.getUpId());
    }
}
