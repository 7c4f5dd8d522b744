package dev.larch.server.write;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.config.LarchConfig;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class InitialSuffixIT {
    @TempDir
    Path dir;

    private LarchConfig config(String suffix, boolean create) {
        return TestServer.settings(dir.resolve("data"))
                .set("suffix", suffix)
                .set("storage.create-suffix", create)
                .build();
    }

    private static Set<String> objectClasses(SearchResultEntry e) {
        return Set.of(e.getAttributeValues("objectClass"));
    }

    @Test
    void aDcSuffixIsCreatedOnceAsDcObjectAndOrganizationAndAnAddUnderItWorks() throws Exception {
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        log.start();
        Logger logger = (Logger) LoggerFactory.getLogger(InitialSuffix.class);
        logger.addAppender(log);
        try (TestServer server = TestServer.start(config("dc=example,dc=com", true));
                LDAPConnection admin = server.admin()) {
            SearchResultEntry suffix = admin.getEntry("dc=example,dc=com", "*", "creatorsName", "createTimestamp");
            assertNotNull(suffix, "the suffix entry exists on a fresh server");
            assertEquals(Set.of("top", "dcObject", "organization"), objectClasses(suffix));
            assertEquals("example", suffix.getAttributeValue("dc"));
            assertEquals("example", suffix.getAttributeValue("o"));
            assertNotNull(suffix.getAttributeValue("createTimestamp"), "it went through the add path's rules");
            admin.add("dn: ou=people,dc=example,dc=com", "objectClass: organizationalUnit", "ou: people");

            server.restart();
            try (LDAPConnection again = server.admin()) {
                assertNotNull(again.getEntry("ou=people,dc=example,dc=com"));
            }
        } finally {
            logger.detachAppender(log);
        }
        List<String> lines = log.list.stream()
                .map(ILoggingEvent::getFormattedMessage)
                .filter(m -> m.startsWith("created the suffix entry"))
                .toList();
        assertEquals(1, lines.size(), "one line, and only at the first start: " + lines);
        assertTrue(lines.get(0).contains("dc=example,dc=com"), lines.get(0));
    }

    /**
     * The rule is "an empty store", not "a new store": deleting the suffix (possible only once it is
     * the last entry) leaves an empty store, which the next start treats as new. While the server
     * runs, the deletion holds.
     */
    @Test
    void aSuffixDeletedOnPurposeStaysDeletedUntilTheNextStartFindsTheStoreEmpty() throws Exception {
        try (TestServer server = TestServer.start(config("dc=example,dc=com", true))) {
            try (LDAPConnection admin = server.admin()) {
                admin.delete("dc=example,dc=com");
                assertNull(admin.getEntry("dc=example,dc=com"));
            }
            server.restart();
            try (LDAPConnection admin = server.admin()) {
                assertNotNull(admin.getEntry("dc=example,dc=com"), "an empty store gets its suffix again");
            }
        }
    }

    @Test
    void anOSuffixIsAnOrganizationAndAnOuSuffixAnOrganizationalUnit() throws Exception {
        try (TestServer server = TestServer.start(config("o=larch", true));
                LDAPConnection admin = server.boundAs("cn=admin,o=larch", TestServer.ADMIN_PASSWORD)) {
            SearchResultEntry e = admin.getEntry("o=larch");
            assertEquals(Set.of("top", "organization"), objectClasses(e));
            assertEquals("larch", e.getAttributeValue("o"));
        }
        try (TestServer server =
                        TestServer.start(config("ou=directory,o=larch", true).withDataDir(dir.resolve("ou")));
                LDAPConnection admin = server.boundAs("cn=admin,ou=directory,o=larch", TestServer.ADMIN_PASSWORD)) {
            SearchResultEntry e = admin.getEntry("ou=directory,o=larch");
            assertEquals(Set.of("top", "organizationalUnit"), objectClasses(e));
            assertEquals("directory", e.getAttributeValue("ou"));
        }
    }

    @Test
    void anotherRdnTypeStopsTheStartNamingTheKeyToTurnItOff() {
        IllegalStateException e =
                assertThrows(IllegalStateException.class, () -> TestServer.start(config("cn=directory", true)));
        String message = e.getCause().getMessage();
        assertTrue(message.contains("cn=directory"), message);
        assertTrue(message.contains("storage.create-suffix = false"), message);
        // The same store starts without it, empty.
        try (TestServer server = TestServer.start(config("cn=directory", false));
                LDAPConnection admin = server.boundAs("cn=admin,cn=directory", TestServer.ADMIN_PASSWORD)) {
            assertNull(admin.getEntry("cn=directory"));
        } catch (LDAPException ex) {
            throw new AssertionError(ex);
        }
    }

    @Test
    void offTheServerStartsWithoutTheSuffix() throws Exception {
        try (TestServer server = TestServer.start(config("dc=example,dc=com", false));
                LDAPConnection admin = server.admin()) {
            LDAPException e = assertThrows(
                    LDAPException.class, () -> admin.search("dc=example,dc=com", SearchScope.BASE, "(objectClass=*)"));
            assertEquals(ResultCode.NO_SUCH_OBJECT, e.getResultCode());
        }
    }

    @Test
    void aStoreWithEntriesIsNeverGivenASuffix() throws Exception {
        LarchConfig config = config("dc=example,dc=com", true);
        TestServer.importOffline(config, TestServer.BASE_LDIF);
        try (TestServer server = TestServer.start(config);
                LDAPConnection admin = server.admin()) {
            SearchResultEntry suffix = admin.getEntry("dc=example,dc=com");
            assertEquals(Set.of("top", "domain"), objectClasses(suffix), "the imported suffix, untouched");
        }
    }
}
