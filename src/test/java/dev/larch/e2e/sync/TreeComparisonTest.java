package dev.larch.e2e.sync;

import java.net.InetAddress;
import java.time.Duration;
import java.util.Optional;

import com.unboundid.ldap.listener.InMemoryDirectoryServer;
import com.unboundid.ldap.listener.InMemoryDirectoryServerConfig;
import com.unboundid.ldap.listener.InMemoryListenerConfig;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The comparison a replica is judged by must see every difference that matters and name it: two
 * in-memory servers start with the same entries (stamps included), then one of them is changed.
 */
class TreeComparisonTest {
    static final String PERSON = "uid=p1,ou=people," + SlapdConfig.SUFFIX;

    private InMemoryDirectoryServer provider;
    private InMemoryDirectoryServer replica;
    private TreeComparison comparison;

    @BeforeEach
    void twoEqualServers() throws Exception {
        provider = server();
        replica = server();
        comparison = new TreeComparison(endpoint("provider", provider), endpoint("replica", replica));
    }

    @AfterEach
    void stop() {
        provider.shutDown(true);
        replica.shutDown(true);
    }

    @Test
    void equalTreesHaveNoDifference() throws Exception {
        assertEquals(Optional.empty(), comparison.difference());
    }

    @Test
    void aDifferentValueNamesTheEntryTheAttributeAndBothValues() throws Exception {
        replica.modify(PERSON, new Modification(ModificationType.REPLACE, "mail", "other@example.com"));

        String report = comparison.difference().orElseThrow();

        assertTrue(report.contains(PERSON), report);
        assertTrue(report.contains("mail: [p1@example.com] vs [other@example.com]"), report);
    }

    @Test
    void aDifferentEntryCsnIsADifference() throws Exception {
        replica.modify(
                PERSON,
                new Modification(ModificationType.REPLACE, "entryCSN", "20260101000000.000001Z#000000#001#000000"));

        String report = comparison.difference().orElseThrow();

        assertTrue(report.contains("entrycsn: "), report);
    }

    @Test
    void missingAndExtraEntriesAreNamed() throws Exception {
        replica.delete(PERSON);
        replica.add(person("p2", "uuid-p2"));

        String report = comparison.difference().orElseThrow();

        assertTrue(report.contains("missing entries: 1\n    " + PERSON), report);
        assertTrue(report.contains("extra entries: 1\n    uid=p2,ou=people," + SlapdConfig.SUFFIX), report);
    }

    @Test
    void serverLocalAttributesAndSpellingsOfTheSameValueAreNoDifference() throws Exception {
        replica.modify(
                SlapdConfig.SUFFIX,
                new Modification(ModificationType.REPLACE, "contextCSN", "20990101000000.000000Z#000000#001#000000"));
        replica.modify(
                PERSON,
                new Modification(ModificationType.REPLACE, "objectClass", "TOP", "INETORGPERSON"),
                new Modification(ModificationType.REPLACE, "modifiersName", "CN=Admin, DC=Example,DC=com"));

        assertEquals(Optional.empty(), comparison.difference());
    }

    @Test
    void awaitConvergedReportsTheLastDifferenceOnTimeout() throws Exception {
        replica.delete(PERSON);

        AssertionError e = assertThrows(AssertionError.class, () -> comparison.awaitConverged(Duration.ofMillis(600)));

        assertTrue(e.getMessage().contains("missing entries: 1\n    " + PERSON), e.getMessage());
    }

    private static InMemoryDirectoryServer server() throws Exception {
        InMemoryDirectoryServerConfig config = new InMemoryDirectoryServerConfig(SlapdConfig.SUFFIX);
        config.addAdditionalBindCredentials(SlapdServer.PROVIDER_ROOT_DN, SlapdServer.PASSWORD);
        config.setListenerConfigs(
                InMemoryListenerConfig.createLDAPConfig("ldap", InetAddress.getLoopbackAddress(), 0, null));
        // No schema and no generated stamps: the entries carry the stamps a replica copies.
        config.setSchema(null);
        config.setGenerateOperationalAttributes(false);
        InMemoryDirectoryServer server = new InMemoryDirectoryServer(config);
        server.add(
                "dn: " + SlapdConfig.SUFFIX,
                "objectClass: dcObject",
                "objectClass: organization",
                "dc: example",
                "o: Example Corp",
                "entryUUID: uuid-suffix",
                "contextCSN: 20260101000000.000000Z#000000#001#000000");
        server.add("dn: ou=people," + SlapdConfig.SUFFIX, "objectClass: organizationalUnit", "ou: people");
        server.add(person("p1", "uuid-p1"));
        server.startListening();
        return server;
    }

    private static Entry person(String uid, String uuid) {
        return new Entry(
                "uid=" + uid + ",ou=people," + SlapdConfig.SUFFIX,
                new Attribute("objectClass", "top", "inetOrgPerson"),
                new Attribute("uid", uid),
                new Attribute("mail", uid + "@example.com"),
                new Attribute("entryUUID", uuid),
                new Attribute("entryCSN", "20260101000000.000000Z#000000#001#000000"),
                new Attribute("modifiersName", "cn=admin,dc=example,dc=com"));
    }

    private static LdapEndpoint endpoint(String name, InMemoryDirectoryServer server) {
        return new LdapEndpoint() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public String url() {
                return "ldap://127.0.0.1:" + server.getListenPort();
            }

            @Override
            public String bindDn() {
                return SlapdServer.PROVIDER_ROOT_DN;
            }

            @Override
            public String password() {
                return SlapdServer.PASSWORD;
            }
        };
    }
}
