package dev.larch.bench.gen;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.schema.EntryValidator;
import com.unboundid.ldap.sdk.schema.Schema;
import com.unboundid.ldif.LDIFReader;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DataGeneratorTest {
    private static final List<String> PERSON_ATTRIBUTES = List.of(
            "cn",
            "sn",
            "uid",
            "givenName",
            "description",
            "userPassword",
            "departmentNumber",
            "employeeType",
            "homePhone",
            "initials",
            "telephoneNumber",
            "facsimileTelephoneNumber",
            "mobile",
            "pager",
            "manager",
            "secretary",
            "roomNumber",
            "carLicense",
            "l",
            "ou",
            "mail",
            "postalAddress",
            "title");

    static byte[] generate(long people, long seed) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new DataGenerator(new GenOptions(people, seed, GenOptions.DEFAULT_SUFFIX, 0.7, 100)).write(out);
        return out.toByteArray();
    }

    static List<Entry> parse(byte[] ldif) throws Exception {
        List<Entry> entries = new ArrayList<>();
        try (LDIFReader reader = new LDIFReader(new ByteArrayInputStream(ldif))) {
            for (Entry e = reader.readEntry(); e != null; e = reader.readEntry()) {
                entries.add(e);
            }
        }
        return entries;
    }

    @Test
    void sameSeedAndSizeGiveTheSameBytes() throws Exception {
        assertArrayEquals(generate(2_500, 42), generate(2_500, 42));
    }

    @Test
    void anotherSeedGivesOtherData() throws Exception {
        assertFalse(Arrays.equals(generate(500, 1), generate(500, 2)));
    }

    @Test
    void cnUidAndMailAreUniqueIgnoringCase() throws Exception {
        List<Entry> people = parse(generate(20_000, 7)).stream()
                .filter(e -> e.hasAttribute("uid"))
                .toList();
        assertEquals(20_000, people.size());
        for (String attr : List.of("cn", "uid", "mail")) {
            Set<String> seen = new HashSet<>();
            for (Entry e : people) {
                assertTrue(seen.add(e.getAttributeValue(attr).toLowerCase(Locale.ROOT)), attr + " repeats");
            }
        }
    }

    @Test
    void everyPersonHasAll23AttributeTypesAndPassesStrictSchemaChecks() throws Exception {
        EntryValidator validator = new EntryValidator(Schema.getDefaultStandardSchema());
        for (Entry e : parse(generate(1_000, 3))) {
            List<String> problems = new ArrayList<>();
            assertTrue(validator.entryIsValid(e, problems), e.getDN() + ": " + problems);
            if (e.hasObjectClass("inetOrgPerson")) {
                for (String attr : PERSON_ATTRIBUTES) {
                    assertTrue(e.hasAttribute(attr), e.getDN() + " lacks " + attr);
                }
                assertEquals(PERSON_ATTRIBUTES.size() + 1, e.getAttributes().size());
            }
        }
    }

    @Test
    void managersSecretariesAndMembersNameEntriesWrittenBefore() throws Exception {
        Set<DN> written = new HashSet<>();
        int groups = 0;
        for (Entry e : parse(generate(1_050, 5))) {
            written.add(e.getParsedDN());
            if (e.hasObjectClass("inetOrgPerson")) {
                assertTrue(written.contains(new DN(e.getAttributeValue("manager"))));
                assertTrue(written.contains(new DN(e.getAttributeValue("secretary"))));
            }
            if (e.hasObjectClass("groupOfNames")) {
                groups++;
                String[] members = e.getAttributeValues("member");
                assertEquals(groups <= 10 ? 100 : 50, members.length);
                for (String m : members) {
                    assertTrue(written.contains(new DN(m)), m);
                }
                assertTrue(e.getParsedDN().getParent().getRDN().toString().equals("ou=Groups"));
            }
        }
        assertEquals(11, groups);
    }

    @Test
    void dataSetStartsWithTheSuffixAndTheSixUnits() throws Exception {
        List<Entry> entries = parse(generate(10, 1));
        assertEquals("dc=example,dc=com", entries.get(0).getDN());
        assertEquals(
                List.of("Accounting", "Product Development", "Product Testing", "Human Resources", "Payroll", "Groups"),
                entries.subList(1, 7).stream()
                        .map(e -> e.getAttributeValue("ou"))
                        .toList());
    }

    @Test
    void organizationSuffixesAreSupportedAndOthersRejected() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new DataGenerator(new GenOptions(5, 1, "o=Acme", 0.7, 100)).write(out);
        Entry root = parse(out.toByteArray()).get(0);
        assertTrue(root.hasObjectClass("organization"));
        assertThrows(
                IllegalArgumentException.class,
                () -> new DataGenerator(new GenOptions(5, 1, "cn=nope", 0.7, 100)).write(new ByteArrayOutputStream()));
        assertEquals("example.com", DataGenerator.mailDomain("o=Acme"));
        assertEquals("corp.example.org", DataGenerator.mailDomain("dc=corp,dc=example,dc=org"));
    }

    @Test
    void skewedPickerFavoursEarlyPositionsAndUniformDoesNot() {
        SplitMix64 rng = new SplitMix64(9);
        int[] skewed = new int[100];
        int[] uniform = new int[100];
        SkewedPicker s = new SkewedPicker(100, 1.0);
        SkewedPicker u = new SkewedPicker(100, 0.0);
        for (int i = 0; i < 100_000; i++) {
            skewed[s.pick(rng)]++;
            uniform[u.pick(rng)]++;
        }
        assertTrue(skewed[0] > 10 * skewed[99]);
        assertTrue(uniform[0] < 2 * uniform[99] && uniform[99] < 2 * uniform[0]);
    }

    @Test
    void nameListsHaveTheOriginalSizesAndNoCaseDuplicates() {
        NameLists lists = NameLists.standard();
        assertEquals(NameLists.GIVEN_COUNT, lists.given().size());
        assertEquals(NameLists.FAMILY_COUNT, lists.family().size());
        Set<String> all = new HashSet<>();
        lists.given().forEach(n -> assertTrue(all.add(n.toLowerCase(Locale.ROOT))));
        lists.family().forEach(n -> assertTrue(all.add(n.toLowerCase(Locale.ROOT))));
    }
}
