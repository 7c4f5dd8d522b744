package dev.larch.schema;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.apache.directory.api.ldap.model.entry.DefaultEntry;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.exception.LdapInvalidDnException;
import org.apache.directory.api.ldap.model.name.Dn;
import org.apache.directory.api.ldap.model.schema.AttributeType;
import org.apache.directory.api.ldap.model.schema.LdapSyntax;
import org.apache.directory.api.ldap.model.schema.MatchingRule;
import org.apache.directory.api.ldap.model.schema.MatchingRuleUse;
import org.apache.directory.api.ldap.model.schema.ObjectClass;
import org.apache.directory.api.ldap.model.schema.SchemaManager;
import org.apache.directory.api.ldap.model.schema.SchemaObjectRenderer;

/**
 * The subschema subentry (RFC 4512 section 4.2) that publishes a schema to clients, so that
 * {@code ldapsearch -b cn=Subschema -s base +} can read it.
 *
 * <p>The entry has the object classes OpenLDAP gives its own subschema entry (top, subentry,
 * subschema, extensibleObject), the naming attribute of its DN, and the operational attributes
 * attributeTypes, objectClasses, ldapSyntaxes, matchingRules, matchingRuleUse, createTimestamp and
 * modifyTimestamp. Descriptions are in the RFC 4512 section 4.1 format, each tagged with the
 * {@code X-SCHEMA} it comes from. The entry is synthesized, never stored.
 */
public final class SubschemaEntry {
    private static final SchemaObjectRenderer RENDERER = SchemaObjectRenderer.SUBSCHEMA_SUBENTRY_RENDERER;
    private static final DateTimeFormatter GENERALIZED_TIME =
            DateTimeFormatter.ofPattern("uuuuMMddHHmmss'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

    private SubschemaEntry() {}

    /**
     * The subschema entry, time-stamped now.
     *
     * @see #build(SchemaManager, String, Instant)
     */
    public static Entry build(SchemaManager schemaManager, String subschemaDn) {
        return build(schemaManager, subschemaDn, Instant.now());
    }

    /**
     * The subschema entry for a schema.
     *
     * @param schemaManager the schema to publish; only read
     * @param subschemaDn the entry's DN, conventionally {@code cn=Subschema}
     * @param schemaTime when the schema was loaded, published as createTimestamp and modifyTimestamp
     * @return a new schema-aware entry the caller owns
     * @throws IllegalArgumentException when {@code subschemaDn} is not a DN
     */
    public static Entry build(SchemaManager schemaManager, String subschemaDn, Instant schemaTime) {
        Dn dn;
        try {
            dn = new Dn(schemaManager, subschemaDn);
        } catch (LdapInvalidDnException e) {
            throw new IllegalArgumentException("not a DN: " + subschemaDn, e);
        }
        String time = GENERALIZED_TIME.format(schemaTime);
        try {
            Entry entry = new DefaultEntry(schemaManager, dn);
            entry.add("objectClass", "top", "subentry", "subschema", "extensibleObject");
            entry.add(dn.getRdn().getType(), dn.getRdn().getValue());
            entry.add("createTimestamp", time);
            entry.add("modifyTimestamp", time);
            entry.add("ldapSyntaxes", syntaxes(schemaManager));
            entry.add("matchingRules", matchingRules(schemaManager));
            entry.add("matchingRuleUse", matchingRuleUses(schemaManager));
            entry.add("attributeTypes", attributeTypes(schemaManager));
            entry.add("objectClasses", objectClasses(schemaManager));
            return entry;
        } catch (LdapException e) {
            // Every attribute used above is in the system schema and every value comes from the API's
            // own renderer, so only a broken schema manager gets here.
            throw new IllegalStateException("cannot build the subschema entry: " + e.getMessage(), e);
        }
    }

    /** Sorted by OID, so the entry reads the same on every start and diffs cleanly. */
    private static String[] sorted(List<String> values) {
        values.sort(null);
        return values.toArray(String[]::new);
    }

    private static String[] syntaxes(SchemaManager manager) {
        List<String> values = new ArrayList<>();
        for (LdapSyntax syntax : manager.getLdapSyntaxRegistry()) {
            values.add(RENDERER.render(syntax));
        }
        return sorted(values);
    }

    private static String[] matchingRules(SchemaManager manager) {
        List<String> values = new ArrayList<>();
        for (MatchingRule rule : manager.getMatchingRuleRegistry()) {
            values.add(RENDERER.render(rule));
        }
        return sorted(values);
    }

    private static String[] matchingRuleUses(SchemaManager manager) {
        List<String> values = new ArrayList<>();
        for (MatchingRuleUse use : MatchingRuleUses.of(manager)) {
            values.add(RENDERER.render(use));
        }
        return sorted(values);
    }

    private static String[] attributeTypes(SchemaManager manager) {
        List<String> values = new ArrayList<>();
        for (AttributeType type : manager.getAttributeTypeRegistry()) {
            values.add(RENDERER.render(type));
        }
        return sorted(values);
    }

    private static String[] objectClasses(SchemaManager manager) {
        List<String> values = new ArrayList<>();
        for (ObjectClass objectClass : manager.getObjectClassRegistry()) {
            values.add(RENDERER.render(objectClass));
        }
        return sorted(values);
    }
}
