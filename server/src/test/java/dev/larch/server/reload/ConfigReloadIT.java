package dev.larch.server.reload;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPSearchException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.config.LarchConfig;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConfigReloadIT {
    private static final String PEOPLE = "ou=people," + TestServer.SUFFIX;

    @TempDir
    Path dir;

    private Path file;
    private TestServer server;
    private ConfigReload reload;

    @BeforeEach
    void startWithASizeLimitOfThree() throws Exception {
        file = dir.resolve("larch.conf");
        Files.writeString(file, "limits.apply-to-admin = true\nlimits.size-limit = 3\n");
        LarchConfig.FileConfig started = LarchConfig.loadWithSettings(file);
        server = TestServer.start(dir.resolve("data"), c -> {
            started.settings().forEach(c::set);
            return c;
        });
        server.add(TestServer.BASE_LDIF);
        StringBuilder people = new StringBuilder();
        for (int i = 0; i < 10; i++) {
            people.append("dn: uid=p")
                    .append(i)
                    .append(',')
                    .append(PEOPLE)
                    .append("\nobjectClass: inetOrgPerson\nuid: p")
                    .append(i)
                    .append("\ncn: P")
                    .append(i)
                    .append("\nsn: P\n\n");
        }
        server.add(people.toString());
        reload = new ConfigReload(file, started, () -> LarchConfig.loadWithSettings(file), server.live());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    /** The entries a subtree search of the people returns before the size limit stops it. */
    private int entriesBeforeTheSizeLimit() throws Exception {
        try (LDAPConnection admin = server.admin()) {
            LDAPSearchException e = assertThrows(
                    LDAPSearchException.class,
                    () -> admin.search(PEOPLE, SearchScope.ONE, "(objectClass=inetOrgPerson)"));
            assertEquals(ResultCode.SIZE_LIMIT_EXCEEDED, e.getResultCode());
            return e.getEntryCount();
        }
    }

    @Test
    void aNewSizeLimitIsAnsweredByTheNextSearchAndARestartOnlyKeyIsReportedNotApplied() throws Exception {
        assertEquals(3, entriesBeforeTheSizeLimit());
        Files.writeString(file, "limits.apply-to-admin = true\nlimits.size-limit = 5\nlisten.port = 1390\n");
        List<String> lines = reload.reload();
        assertEquals(2, lines.size(), lines.toString());
        assertTrue(lines.get(0).endsWith("limits.size-limit = 5 (was 3): applied"), lines.get(0));
        assertTrue(lines.get(1).endsWith("listen.port = 1390 (was (default)): needs a restart"), lines.get(1));
        assertEquals(5, entriesBeforeTheSizeLimit());
        assertEquals(List.of("reload of " + file + ": nothing changed"), reload.reload());
    }

    @Test
    void aBadFileKeepsTheRunningConfigWhole() throws Exception {
        Files.writeString(
                file,
                "limits.apply-to-admin = true\nlimits.size-limit = 7\nlogging.access-log = true\nlimits.time-limit-seconds = soon\n");
        List<String> lines = reload.reload();
        assertEquals(1, lines.size(), lines.toString());
        assertTrue(lines.get(0).contains("failed, the running configuration stays in force"), lines.get(0));
        assertTrue(lines.get(0).contains("limits.time-limit-seconds"), lines.get(0));
        assertEquals(3, entriesBeforeTheSizeLimit());
        assertFalse(server.live().accessLog().isOn(), "nothing of the bad file applied");
    }

    @Test
    void aBadAccessFileKeepsEverythingElseOfTheSameReloadOut() throws Exception {
        Path rules = dir.resolve("access.aci");
        Files.writeString(rules, "this is not an aci\n");
        Files.writeString(file, "limits.apply-to-admin = true\nlimits.size-limit = 8\naccess.file = access.aci\n");
        List<String> lines = reload.reload();
        assertEquals(1, lines.size(), lines.toString());
        assertTrue(lines.get(0).contains("access.file"), lines.get(0));
        assertEquals(3, entriesBeforeTheSizeLimit());
    }

    @Test
    void theAccessLogCanBeTurnedOnAndOffAndSecretsAreNotLogged() throws Exception {
        Files.writeString(
                file,
                "limits.apply-to-admin = true\nlimits.size-limit = 3\nlogging.access-log = true\nsecurity.admin-password = hunter2\n");
        List<String> lines = reload.reload();
        assertTrue(server.live().accessLog().isOn());
        assertTrue(
                lines.stream().anyMatch(l -> l.endsWith("logging.access-log = true (was (default)): applied")),
                lines.toString());
        assertTrue(
                lines.stream()
                        .anyMatch(l -> l.endsWith("security.admin-password = *** (was (default)): needs a restart")),
                lines.toString());
        assertFalse(lines.toString().contains("hunter2"));
        Files.writeString(
                file,
                "limits.apply-to-admin = true\nlimits.size-limit = 3\nlogging.access-log = false\nsecurity.admin-password = hunter2\n");
        reload.reload();
        assertFalse(server.live().accessLog().isOn());
    }

    @Test
    void editedAccessRulesApplyWithoutTheKeyChanging() throws Exception {
        Path rules = dir.resolve("access.aci");
        // First anonymous users may read everything, then only uid and objectClass.
        Files.writeString(
                rules,
                "(targetattr=\"*\")(version 3.0; acl \"read\"; allow (read,search,compare) userdn=\"ldap:///anyone\";)\n");
        Files.writeString(file, "limits.apply-to-admin = true\nlimits.size-limit = 3\naccess.file = access.aci\n");
        reload.reload();
        try (LDAPConnection anonymous = server.anonymous()) {
            assertEquals("P1", anonymous.getEntry("uid=p1," + PEOPLE, "cn").getAttributeValue("cn"));
        }
        Files.writeString(
                rules,
                "(targetattr=\"uid || objectClass\")(version 3.0; acl \"read\"; allow (read,search,compare) userdn=\"ldap:///anyone\";)\n");
        List<String> lines = reload.reload();
        assertEquals(1, lines.size(), lines.toString());
        assertTrue(lines.get(0).contains("access.file: the content of"), lines.get(0));
        assertTrue(lines.get(0).endsWith(": applied"), lines.get(0));
        try (LDAPConnection anonymous = server.anonymous()) {
            assertFalse(anonymous.getEntry("uid=p1," + PEOPLE, "cn").hasAttribute("cn"));
        }
    }
}
