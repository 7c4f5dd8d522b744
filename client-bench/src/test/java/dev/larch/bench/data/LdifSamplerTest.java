package dev.larch.bench.data;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

import dev.larch.bench.TestData;
import dev.larch.bench.gen.SplitMix64;
import dev.larch.bench.mix.Variable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LdifSamplerTest {
    @TempDir
    Path dir;

    @Test
    void keepsEveryPersonAndEveryGroupWithItsMembers() throws Exception {
        Path f = TestData.ldif(dir.resolve("d.ldif"), 3_000);
        DataSample s = new LdifSampler().sample(f);
        assertEquals(3_000, s.people());
        assertEquals(30, s.groups());
        assertEquals(3_000 + 30 + 7, s.entries());
        assertEquals("dc=example,dc=com", s.suffix());
        assertTrue(s.missing(EnumSet.allOf(Variable.class)).isEmpty());
        // Every person of the file, in file order, with the DN exactly as written.
        List<String> personDns = new ArrayList<>();
        List<String> groupDns = new ArrayList<>();
        for (String line : Files.readAllLines(f)) {
            if (line.startsWith("dn: cn=Group ")) {
                groupDns.add(line.substring(4));
            } else if (line.startsWith("dn: cn=")) {
                personDns.add(line.substring(4));
            }
        }
        for (int i = 0; i < s.people(); i++) {
            assertEquals(personDns.get(i), s.personDn(i));
        }
        assertEquals(groupDns.get(29), s.groupDn(29));
        // generated groups hold the 100 people written before them
        List<String> members = s.groupMembers(1);
        assertEquals(100, members.size());
        assertEquals(personDns.subList(100, 200), members);
        assertEquals(personDns.get(0).substring(personDns.get(0).indexOf(',') + 1), s.container(0));
        assertTrue(s.everyPersonHas("telephoneNumber") && s.everyPersonHas("MAIL"));
        assertFalse(s.everyPersonHas("member"));
    }

    @Test
    void drawsUniformlyByDefaultAndReproduciblyWithASeed() throws Exception {
        DataSample s = new LdifSampler().sample(TestData.ldif(dir.resolve("d.ldif"), 1_000));
        int[] seen = new int[s.people()];
        SplitMix64 rng = new SplitMix64(4);
        for (int i = 0; i < 100_000; i++) {
            seen[s.pickPerson(List.of(), rng)]++;
        }
        for (int n : seen) {
            assertTrue(n > 40 && n < 170, "draws of one person: " + n); // mean 100
        }
        DataSample skewed = s.withKeySkew(0.99, 5);
        SplitMix64 a = new SplitMix64(8);
        SplitMix64 b = new SplitMix64(8);
        for (int i = 0; i < 100; i++) {
            assertEquals(
                    skewed.pickPerson(List.of(), a), skewed.withKeySkew(0.99, 5).pickPerson(List.of(), b));
        }
    }

    @Test
    void readsFoldedLinesBase64CommentsAndOptions() throws Exception {
        Path f = dir.resolve("x.ldif");
        Files.writeString(
                f,
                String.join(
                        "\n",
                        "version: 1",
                        "",
                        "# a comment",
                        "dn: dc=example,dc=com",
                        "objectClass: domain",
                        "dc: example",
                        "",
                        "dn: cn=Ann Lee,dc=exam",
                        " ple,dc=com",
                        "objectClass: inetOrgPerson",
                        "cn;lang-en: Ann Lee",
                        "sn:: TGVl",
                        "mail: ann@example.com",
                        "",
                        "dn: cn=g,dc=example,dc=com",
                        "objectClass: groupOfNames",
                        "member: cn=Ann Lee,dc=example,dc=com",
                        ""));
        DataSample s = new LdifSampler().sample(f);
        assertEquals(3, s.entries());
        assertEquals(1, s.people());
        assertEquals(1, s.groups());
        assertEquals("cn=Ann Lee,dc=example,dc=com", s.value(Variable.PERSON_DN, 0, -1, null));
        assertEquals("Lee", s.value(Variable.SN, 0, -1, null));
        assertEquals("Ann Lee", s.value(Variable.CN, 0, -1, null));
        List<String> missing = s.missing(EnumSet.of(Variable.UID, Variable.GIVEN_NAME_PREFIX, Variable.MAIL));
        assertEquals(2, missing.size(), missing.toString());
        assertTrue(missing.get(0).contains("'uid'"));
    }

    @Test
    void readsBase64DnsFoldedBase64ValuesAndFoldedComments() throws Exception {
        Path f = ldif(
                "# a comment that is folded",
                " over two lines",
                "dn:: Y249SsO8cmdlbiBNw7xsbGVyLGRjPWV4YW1wbGUsZGM9Y29t",
                "objectClass: inetOrgPerson",
                "cn:: SsO8cmdlbiBN",
                " w7xsbGVy",
                "sn: Müller",
                "");
        DataSample s = new LdifSampler().sample(f);
        assertEquals("cn=Jürgen Müller,dc=example,dc=com", s.value(Variable.PERSON_DN, 0, -1, null));
        assertEquals("Jürgen Müller", s.value(Variable.CN, 0, -1, null));
        assertEquals("Müller", s.value(Variable.SN, 0, -1, null));
    }

    @Test
    void namesAreCaseInsensitiveAliasesCountAndTheFirstValueInFileOrderWins() throws Exception {
        Path f = ldif(
                "dn: uid=ann,dc=example,dc=com",
                "OBJECTCLASS: INETORGPERSON",
                "cn;lang-de: Anna Lee",
                "CN: Ann Lee",
                "Surname: Lee",
                "GN: Ann",
                "mail: ann@example.com   ",
                "mail: ann.lee@example.com",
                "uid: ann",
                "");
        DataSample s = new LdifSampler().sample(f);
        assertEquals(1, s.people());
        assertEquals("Anna Lee", s.value(Variable.CN, 0, -1, null));
        assertEquals("Lee", s.value(Variable.SN, 0, -1, null));
        assertEquals("Ann", s.value(Variable.GIVEN_NAME, 0, -1, null));
        assertEquals("ann@example.com", s.value(Variable.MAIL, 0, -1, null), "trailing spaces are stripped");
        assertEquals("ann", s.value(Variable.UID, 0, -1, null));
    }

    @Test
    void groupsWithoutMembersAreEntriesButNotGroups() throws Exception {
        Path f = ldif(
                "dn: cn=empty,dc=example,dc=com",
                "objectClass: groupOfNames",
                "member:",
                "",
                "dn: cn=staff,dc=example,dc=com",
                "objectClass: groupOfUniqueNames",
                "uniqueMember: cn=Ann Lee,dc=example,dc=com",
                "");
        DataSample s = new LdifSampler().sample(f);
        assertEquals(2, s.entries());
        assertEquals(1, s.groups());
        assertEquals("cn=staff,dc=example,dc=com", s.groupDn(0));
        assertEquals(List.of("cn=Ann Lee,dc=example,dc=com"), s.groupMembers(0));
    }

    @Test
    void addChangeRecordsAreEntriesAndOtherChangeRecordsAreRejected() throws Exception {
        Path adds = ldif(
                "dn: cn=Ann Lee,dc=example,dc=com",
                "changetype: add",
                "objectClass: inetOrgPerson",
                "cn: Ann Lee",
                "sn: Lee",
                "");
        DataSample s = new LdifSampler().sample(adds);
        assertEquals(1, s.people());
        assertEquals("Ann Lee", s.value(Variable.CN, 0, -1, null));

        Path deletes = ldif("dn: cn=Ann Lee,dc=example,dc=com", "changetype: delete", "");
        String message = assertThrows(IllegalArgumentException.class, () -> new LdifSampler().sample(deletes))
                .getMessage();
        assertTrue(message.contains(deletes.toString()) && message.contains("'delete' change record"), message);
    }

    @Test
    void malformedLdifIsAnErrorNamingTheFileAndTheLine() throws Exception {
        Path noColon = ldif(
                "dn: dc=example,dc=com",
                "objectClass: domain",
                "",
                "dn: cn=Ann Lee,dc=example,dc=com",
                "objectClass: person",
                "this line names no attribute",
                "");
        assertErrorNames(noColon, "line 4");
        Path noDn = ldif("dn: dc=example,dc=com", "objectClass: domain", "", "objectClass: person", "cn: Ann Lee", "");
        assertErrorNames(noDn, "line 4");
        Path badBase64 = ldif("dn: cn=x,dc=example,dc=com", "cn:: not*base64", "");
        assertErrorNames(badBase64, "line 1");
    }

    private static void assertErrorNames(Path file, String line) {
        String message = assertThrows(IllegalArgumentException.class, () -> new LdifSampler().sample(file))
                .getMessage();
        assertTrue(message.startsWith("data file " + file + " is not valid LDIF near " + line + ":"), message);
    }

    private Path ldif(String... lines) throws Exception {
        return Files.writeString(Files.createTempFile(dir, "sample", ".ldif"), String.join("\n", lines));
    }

    @Test
    void prefixesAreFourOrFiveCharactersOfARealName() throws Exception {
        DataSample s = new LdifSampler().sample(TestData.ldif(dir.resolve("d.ldif"), 200));
        SplitMix64 rng = new SplitMix64(3);
        for (int i = 0; i < 100; i++) {
            String sn = s.value(Variable.SN, i, -1, rng);
            String p = s.value(Variable.SN_PREFIX, i, -1, rng);
            assertTrue(sn.startsWith(p));
            assertTrue(p.length() == Math.min(sn.length(), 4) || p.length() == Math.min(sn.length(), 5), p);
        }
    }

    @Test
    void anAbsentPersonDnLiesInARealContainer() throws Exception {
        DataSample s = new LdifSampler().sample(TestData.ldif(dir.resolve("d.ldif"), 100));
        String absent = s.value(Variable.ABSENT_PERSON_DN, 3, -1, new SplitMix64(3));
        assertTrue(absent.startsWith("cn=") && absent.contains(" Absent"), absent);
        assertTrue(absent.endsWith("," + s.container(3)), absent);
    }

    @Test
    void absentNamesAndMailsNeverMatchSampledOnes() throws Exception {
        DataSample s = new LdifSampler().sample(TestData.ldif(dir.resolve("d.ldif"), 100));
        SplitMix64 rng = new SplitMix64(3);
        String absent = s.value(Variable.ABSENT_NAME, 0, -1, rng);
        assertFalse(absent.equals(s.value(Variable.CN, 0, -1, rng)));
        assertTrue(absent.contains(" Absent"));
        assertTrue(s.value(Variable.ABSENT_MAIL, 0, -1, rng).endsWith("@example.com"));
    }

    @Test
    void missingOrEmptyFilesAreClearErrors() throws Exception {
        assertTrue(
                assertThrows(IllegalArgumentException.class, () -> new LdifSampler().sample(dir.resolve("none.ldif")))
                        .getMessage()
                        .contains("not found"));
        for (String content : List.of("", "# nothing\n", "version: 1\n\n")) {
            Path empty = Files.writeString(dir.resolve("empty.ldif"), content);
            assertTrue(
                    assertThrows(IllegalArgumentException.class, () -> new LdifSampler().sample(empty))
                            .getMessage()
                            .contains("no LDIF entries"),
                    content);
        }
    }
}
