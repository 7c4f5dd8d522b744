package dev.larch.server.directory;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

import dev.larch.schema.LarchSchema;
import org.apache.directory.api.ldap.model.entry.DefaultEntry;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.entry.Value;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.schema.SchemaManager;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SchemaCheckerTest {
    private final SchemaManager schema = LarchSchema.standard();
    private final SchemaChecker checker = new SchemaChecker(schema);

    @Test
    void addsEverySuperclassAnEntryDoesNotList() throws LdapException {
        Entry entry = person("inetOrgPerson");

        checker.addSuperclasses(entry);

        assertEquals(Set.of("inetorgperson", "organizationalperson", "person", "top"), objectClasses(entry));
    }

    @Test
    void aClassListedByItsOidIsNotAddedAgainByName() throws LdapException {
        Entry entry = person("inetOrgPerson", "2.5.6.7", "2.5.6.6", "2.5.6.0");

        checker.addSuperclasses(entry);

        assertEquals(4, entry.get("objectClass").size());
    }

    @Test
    void anEntryListingEveryClassIsLeftAsItWas() throws LdapException {
        Entry entry = person("Top", "person", "organizationalPerson", "inetOrgPerson");
        Entry before = entry.clone();

        checker.addSuperclasses(entry);

        assertEquals(before, entry);
    }

    @Test
    void unknownClassesAreLeftForTheCheckToReport() throws LdapException {
        Entry entry = person("person", "noSuchClass");

        checker.addSuperclasses(entry);

        assertEquals(Set.of("person", "nosuchclass", "top"), objectClasses(entry));
    }

    private Entry person(String... objectClasses) throws LdapException {
        return new DefaultEntry(schema, "cn=a,dc=example,dc=com", "cn: a", "sn: b").add("objectClass", objectClasses);
    }

    private static Set<String> objectClasses(Entry entry) {
        Set<String> names = new HashSet<>();
        for (Value v : entry.get("objectClass")) {
            names.add(v.getString().toLowerCase(Locale.ROOT));
        }
        return names;
    }
}
