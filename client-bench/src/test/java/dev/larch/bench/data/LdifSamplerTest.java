package dev.larch.bench.data;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

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
    void countsEverythingAndKeepsAUniformSampleOfBoundedSize() throws Exception {
        Path f = TestData.ldif(dir.resolve("d.ldif"), 3_000);
        DataSample s = new LdifSampler(500, 10, 1).sample(f);
        assertEquals(3_000, s.people());
        assertEquals(30, s.groups());
        assertEquals(3_000 + 30 + 7, s.entries());
        assertEquals(500, s.sampledPeople());
        assertEquals(10, s.sampledGroups());
        assertEquals("dc=example,dc=com", s.suffix());
        assertTrue(s.missing(EnumSet.allOf(Variable.class)).isEmpty());
        // A uniform sample of 500 from 3,000 holds about 83 of the first 500 people, not all of them.
        Set<String> first500 = new HashSet<>();
        for (String line : Files.readAllLines(f)) {
            if (line.startsWith("dn: cn=") && !line.contains("ou=Groups") && first500.size() < 500) {
                first500.add(line.substring(4));
            }
        }
        int early = 0;
        for (int i = 0; i < 500; i++) {
            early += first500.contains(s.value(Variable.PERSON_DN, i, null)) ? 1 : 0;
        }
        assertTrue(early > 30 && early < 160, "people from the first sixth: " + early);
    }

    @Test
    void sameSeedSamplesTheSamePeople() throws Exception {
        Path f = TestData.ldif(dir.resolve("d.ldif"), 2_000);
        DataSample a = new LdifSampler(100, 5, 9).sample(f);
        DataSample b = new LdifSampler(100, 5, 9).sample(f);
        for (int i = 0; i < 100; i++) {
            assertEquals(a.value(Variable.MAIL, i, null), b.value(Variable.MAIL, i, null));
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
        DataSample s = new LdifSampler(10, 10, 1).sample(f);
        assertEquals(3, s.entries());
        assertEquals(1, s.people());
        assertEquals(1, s.groups());
        assertEquals("cn=Ann Lee,dc=example,dc=com", s.value(Variable.PERSON_DN, 0, null));
        assertEquals("Lee", s.value(Variable.SN, 0, null));
        assertEquals("Ann Lee", s.value(Variable.CN, 0, null));
        List<String> missing = s.missing(EnumSet.of(Variable.UID, Variable.GIVEN_NAME_PREFIX, Variable.MAIL));
        assertEquals(2, missing.size(), missing.toString());
        assertTrue(missing.get(0).contains("'uid'"));
    }

    @Test
    void prefixesAreFourOrFiveCharactersOfARealName() throws Exception {
        DataSample s = new LdifSampler(100, 5, 1).sample(TestData.ldif(dir.resolve("d.ldif"), 200));
        SplitMix64 rng = new SplitMix64(3);
        for (int i = 0; i < 100; i++) {
            String sn = s.value(Variable.SN, i, rng);
            String p = s.value(Variable.SN_PREFIX, i, rng);
            assertTrue(sn.startsWith(p));
            assertTrue(p.length() == Math.min(sn.length(), 4) || p.length() == Math.min(sn.length(), 5), p);
        }
    }

    @Test
    void absentNamesAndMailsNeverMatchSampledOnes() throws Exception {
        DataSample s = new LdifSampler(100, 5, 1).sample(TestData.ldif(dir.resolve("d.ldif"), 100));
        SplitMix64 rng = new SplitMix64(3);
        String absent = s.value(Variable.ABSENT_NAME, 0, rng);
        assertFalse(absent.equals(s.value(Variable.CN, 0, rng)));
        assertTrue(absent.contains(" Absent"));
        assertTrue(s.value(Variable.ABSENT_MAIL, 0, rng).endsWith("@example.com"));
    }

    @Test
    void missingOrEmptyFilesAreClearErrors() throws Exception {
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> new LdifSampler(10, 10, 1).sample(dir.resolve("none.ldif")))
                .getMessage()
                .contains("not found"));
        Path empty = Files.writeString(dir.resolve("empty.ldif"), "# nothing\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new LdifSampler(10, 10, 1).sample(empty))
                .getMessage()
                .contains("no LDIF entries"));
    }
}
