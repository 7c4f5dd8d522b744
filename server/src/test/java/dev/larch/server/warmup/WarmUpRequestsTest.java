package dev.larch.server.warmup;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.larch.config.LarchConfig;
import dev.larch.schema.LarchSchema;
import dev.larch.server.StoredDirectory;
import dev.larch.server.testing.TestServer;
import org.apache.directory.api.ldap.codec.api.LdapApiServiceFactory;
import org.apache.directory.api.ldap.model.filter.EqualityNode;
import org.apache.directory.api.ldap.model.message.SearchRequest;
import org.apache.directory.api.ldap.model.message.SearchScope;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WarmUpRequestsTest {
    private static final String SUFFIX_ONLY = """
            dn: dc=example,dc=com
            objectClass: top
            objectClass: domain
            dc: example
            """;

    @TempDir
    Path dir;

    private List<SearchRequest> pick(String ldif, int sample) throws Exception {
        LarchConfig config = TestServer.config(dir.resolve("data"));
        if (!ldif.isEmpty()) {
            TestServer.importOffline(config, ldif);
        }
        try (StoredDirectory open = StoredDirectory.open(config, LarchSchema.load(config.schemaFiles()), false)) {
            return WarmUpRequests.pick(open.directory(), sample);
        }
    }

    /** scope, base and filter of a request, e.g. {@code sub dc=example,dc=com (uid=user0)}. */
    private static String describe(SearchRequest r) {
        String scope = switch (r.getScope()) {
            case OBJECT -> "base";
            case ONELEVEL -> "one";
            case SUBTREE -> "sub";
        };
        return scope + " " + r.getBase() + " " + r.getFilter();
    }

    @Test
    void emptyStoreGivesNoRequest() throws Exception {
        assertEquals(List.of(), pick("", 1000));
    }

    @Test
    void suffixOnlyGivesOneBaseSearchOfIt() throws Exception {
        assertEquals(
                List.of("base dc=example,dc=com (objectClass=*)"),
                pick(SUFFIX_ONLY, 1000).stream()
                        .map(WarmUpRequestsTest::describe)
                        .toList());
    }

    @Test
    void personGivesBaseEqualityOneLevelAndPrefixSearches() throws Exception {
        List<String> described = pick(TestServer.BASE_LDIF + SelfWarmUpIT.people(1), 1000).stream()
                .map(WarmUpRequestsTest::describe)
                .toList();
        // The suffix and the two units have no indexed attribute but objectClass: a base search each.
        assertEquals(
                List.of(
                        "base dc=example,dc=com (objectClass=*)",
                        "base ou=people,dc=example,dc=com (objectClass=*)",
                        "base ou=groups,dc=example,dc=com (objectClass=*)",
                        "base uid=user0,ou=people,dc=example,dc=com (objectClass=*)"),
                described.subList(0, 4));
        // The person: two of its indexed values (which two follows the stored attribute order), a
        // one-level search for the first under its parent, a prefix search for the first.
        List<String> person = described.subList(4, described.size());
        assertEquals(4, person.size(), person::toString);
        Matcher first =
                Pattern.compile("sub dc=example,dc=com \\((\\w+)=(.+)\\)").matcher(person.get(0));
        assertTrue(first.matches(), person::toString);
        Map<String, String> values = Map.of(
                "uid", "user0", "cn", "Person 0", "sn", "Surname0", "mail", "user0@example.com", "givenName", "");
        String attribute = first.group(1);
        assertEquals(values.get(attribute), first.group(2));
        Matcher second =
                Pattern.compile("sub dc=example,dc=com \\((\\w+)=(.+)\\)").matcher(person.get(1));
        assertTrue(second.matches(), person::toString);
        assertNotEquals(attribute, second.group(1));
        assertEquals(values.get(second.group(1)), second.group(2));
        assertEquals("one ou=people,dc=example,dc=com (" + attribute + "=" + first.group(2) + ")", person.get(2));
        assertEquals(
                "sub dc=example,dc=com (" + attribute + "=" + first.group(2).substring(0, 3) + "*)", person.get(3));
    }

    @Test
    void noOneLevelSearchUnderAParentWithManyChildren() throws Exception {
        List<String> described =
                pick(TestServer.BASE_LDIF + SelfWarmUpIT.people(WarmUpRequests.MAX_ONE_LEVEL_CHILDREN + 1), 50).stream()
                        .map(WarmUpRequestsTest::describe)
                        .toList();
        assertTrue(described.stream().anyMatch(d -> d.startsWith("sub ")), described::toString);
        assertTrue(described.stream().noneMatch(d -> d.startsWith("one ")), described::toString);
    }

    @Test
    void everyRequestIsBoundedAndNeverAsksForAWholeObjectClass() throws Exception {
        List<SearchRequest> requests = pick(TestServer.BASE_LDIF + SelfWarmUpIT.people(20), 1000);
        assertFalse(requests.isEmpty());
        for (SearchRequest r : requests) {
            assertEquals(WarmUpRequests.SIZE_LIMIT, r.getSizeLimit(), describe(r));
            assertEquals(WarmUpRequests.TIME_LIMIT_SECONDS, r.getTimeLimit(), describe(r));
            assertFalse(
                    r.getFilter() instanceof EqualityNode<?> eq
                            && eq.getAttribute().equalsIgnoreCase("objectClass"),
                    describe(r));
        }
        // 3 + 20 entries, at most five requests each.
        assertTrue(requests.size() <= 23 * WarmUpRequests.REQUESTS_PER_ENTRY, "" + requests.size());
    }

    @Test
    void sampleSpreadsOverTheWholeStore() throws Exception {
        List<String> bases = pick(TestServer.BASE_LDIF + SelfWarmUpIT.people(60), 6).stream()
                .filter(r -> r.getScope() == SearchScope.OBJECT)
                .map(r -> r.getBase().toString())
                .toList();
        assertEquals(6, bases.size(), bases::toString);
        // 63 entries, every tenth: the sample reaches the 51st, not only the first six.
        assertTrue(bases.contains("uid=user47,ou=people,dc=example,dc=com"), bases::toString);
    }

    @Test
    void encodedRequestsAreWholeLdapMessages() throws Exception {
        List<SearchRequest> requests = pick(TestServer.BASE_LDIF + SelfWarmUpIT.people(3), 1000);
        List<byte[]> encoded = WarmUpRequests.encode(LdapApiServiceFactory.getSingleton(), requests);
        assertEquals(requests.size(), encoded.size());
        for (byte[] message : encoded) {
            assertEquals(0x30, message[0] & 0xFF);
            int length = message[1] & 0xFF;
            int header = 2;
            if (length >= 0x80) {
                int octets = length & 0x7F;
                length = 0;
                for (int i = 0; i < octets; i++) {
                    length = (length << 8) | (message[2 + i] & 0xFF);
                }
                header += octets;
            }
            assertEquals(message.length, header + length);
        }
    }
}
