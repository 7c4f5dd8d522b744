package dev.larch.server.monitor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPSearchException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.server.access.AccessFile;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * cn=Monitor over the wire: its numbers move by exactly what the tests do, its layout follows
 * OpenLDAP's back-monitor, only the administrator and those a targeted access rule names may read it,
 * and it refuses every write.
 */
class MonitorSubtreeIT {
    private static final String WATCHER = "uid=watcher,ou=people," + TestServer.SUFFIX;
    private static final String OPS = "cn=Operations,cn=Monitor";

    /** The built-in rules plus one that opens the monitor to the watcher alone. */
    private static final Path ACCESS = accessFile();

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree()
            .configured(c -> c.set("access.file", ACCESS))
            .adding("""
                    dn: uid=watcher,ou=people,dc=example,dc=com
                    objectClass: inetOrgPerson
                    uid: watcher
                    cn: Watcher
                    sn: Watcher
                    userPassword: watch-it

                    dn: uid=jdoe,ou=people,dc=example,dc=com
                    objectClass: inetOrgPerson
                    uid: jdoe
                    cn: John Doe
                    sn: Doe
                    userPassword: jdoe-pw
                    """);

    private static Path accessFile() {
        try {
            Path file = Files.createTempFile("monitor-it-", ".aci");
            file.toFile().deleteOnExit();
            Files.writeString(
                    file,
                    AccessFile.builtIn()
                            + "\n(target = \"ldap:///cn=Monitor\")(targetattr = \"*\")"
                            + "(version 3.0; acl \"the watcher reads the monitor\"; allow (read, search)"
                            + " userdn = \"ldap:///" + WATCHER + "\";)\n",
                    UTF_8);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long counter(LDAPConnection c, String dn, String attribute) throws LDAPException {
        SearchResultEntry e = c.getEntry(dn, attribute);
        assertTrue(e != null && e.hasAttribute(attribute), dn + " has no " + attribute);
        return Long.parseLong(e.getAttributeValue(attribute));
    }

    @Test
    void searchCountersMoveByExactlyTheSearchesRun() throws Exception {
        LDAPConnection admin = larch.admin();
        SearchResultEntry before = admin.getEntry("cn=Search," + OPS, "monitorOpInitiated", "monitorOpCompleted");
        try (LDAPConnection other = larch.server().anonymous()) {
            for (int i = 0; i < 5; i++) {
                other.search(TestServer.SUFFIX, SearchScope.SUB, "(uid=jdoe)");
            }
        }
        SearchResultEntry after = admin.getEntry("cn=Search," + OPS, "monitorOpInitiated", "monitorOpCompleted");
        // Reading counts too: the first read had begun but not ended, the second has begun.
        assertEquals(
                before.getAttributeValueAsLong("monitorOpInitiated") + 5 + 1,
                after.getAttributeValueAsLong("monitorOpInitiated"));
        assertEquals(
                before.getAttributeValueAsLong("monitorOpCompleted") + 5 + 1,
                after.getAttributeValueAsLong("monitorOpCompleted"));
    }

    @Test
    void bindsCountWithTheirResultCodes() throws Exception {
        LDAPConnection admin = larch.admin();
        long binds = counter(admin, "cn=Bind," + OPS, "monitorOpCompleted");
        long failures = resultCount(admin, "invalidCredentials");
        try (LDAPConnection c = larch.server().anonymous()) {
            c.bind(WATCHER, "watch-it");
            assertEquals(
                    ResultCode.INVALID_CREDENTIALS,
                    assertThrowsLdap(() -> c.bind(WATCHER, "wrong")).getResultCode());
        }
        assertEquals(binds + 2, counter(admin, "cn=Bind," + OPS, "monitorOpCompleted"));
        assertEquals(failures + 1, resultCount(admin, "invalidCredentials"));
        assertEquals(
                "49",
                admin.getEntry("cn=invalidCredentials,cn=Result Codes,cn=Monitor", "monitoredInfo")
                        .getAttributeValue("monitoredInfo"));
    }

    private static long resultCount(LDAPConnection admin, String name) throws LDAPException {
        SearchResultEntry e = admin.getEntry("cn=" + name + ",cn=Result Codes,cn=Monitor", "monitorCounter");
        return e == null ? 0 : Long.parseLong(e.getAttributeValue("monitorCounter"));
    }

    @Test
    void connectionsCountAsTheyOpenAndClose() throws Exception {
        LDAPConnection admin = larch.admin();
        String current = "cn=Current,cn=Connections,cn=Monitor";
        long total = counter(admin, "cn=Total,cn=Connections,cn=Monitor", "monitorCounter");
        long before = counter(admin, current, "monitorCounter");
        List<LDAPConnection> opened = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            opened.add(larch.server().anonymous());
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> counter(admin, current, "monitorCounter") == before + 3);
        assertEquals(total + 3, counter(admin, "cn=Total,cn=Connections,cn=Monitor", "monitorCounter"));
        opened.forEach(LDAPConnection::close);
        await().atMost(Duration.ofSeconds(5)).until(() -> counter(admin, current, "monitorCounter") == before);
    }

    @Test
    void entriesBytesAndIndexLookupsMove() throws Exception {
        LDAPConnection admin = larch.admin();
        String entries = "cn=Entries,cn=Statistics,cn=Monitor";
        String uidIndex = "cn=uid equality,cn=Indexes,cn=Monitor";
        long sent = counter(admin, entries, "monitorCounter");
        long lookups = counter(admin, uidIndex, "monitorCounter");
        long bytesIn = counter(admin, "cn=Bytes Received,cn=Statistics,cn=Monitor", "monitorCounter");
        long bytesOut = counter(admin, "cn=Bytes,cn=Statistics,cn=Monitor", "monitorCounter");
        SearchResult people = admin.search("ou=people," + TestServer.SUFFIX, SearchScope.ONE, "(objectClass=*)");
        admin.search(TestServer.SUFFIX, SearchScope.SUB, "(uid=jdoe)");
        // The four monitor reads before the last returned one entry each; the uid search one.
        assertEquals(sent + 4 + people.getEntryCount() + 1, counter(admin, entries, "monitorCounter"));
        assertEquals(lookups + 1, counter(admin, uidIndex, "monitorCounter"));
        assertTrue(counter(admin, "cn=Bytes Received,cn=Statistics,cn=Monitor", "monitorCounter") > bytesIn);
        assertTrue(counter(admin, "cn=Bytes,cn=Statistics,cn=Monitor", "monitorCounter") > bytesOut);
    }

    @Test
    void databaseNumbersFollowTheStore() throws Exception {
        LDAPConnection admin = larch.admin();
        String db = "cn=Database 0,cn=Databases,cn=Monitor";
        assertEquals(1L << 30, counter(admin, "cn=Map Size," + db, "monitorCounter"));
        long txn = counter(admin, "cn=Last Transaction ID," + db, "monitorCounter");
        long records = counter(admin, "cn=entries,cn=Records," + db, "monitorCounter");
        larch.server().add("""
                dn: uid=counted,ou=people,dc=example,dc=com
                objectClass: inetOrgPerson
                uid: counted
                cn: Counted
                sn: Counted
                """);
        assertEquals(records + 1, counter(admin, "cn=entries,cn=Records," + db, "monitorCounter"));
        assertTrue(counter(admin, "cn=Last Transaction ID," + db, "monitorCounter") > txn);
        assertTrue(counter(admin, "cn=Readers," + db, "monitorCounter") >= 1);
        assertTrue(counter(admin, "cn=Max Readers," + db, "monitorCounter") > 1);
        assertTrue(counter(admin, "cn=Heap Used,cn=JVM,cn=Monitor", "monitorCounter") > 0);
    }

    @Test
    void layoutFollowsBackMonitor() throws Exception {
        LDAPConnection admin = larch.admin();
        SearchResultEntry root = admin.getEntry("cn=Monitor", "*", "+");
        assertEquals("monitorServer", root.getAttributeValue("objectClass"));
        assertTrue(root.getAttributeValue("monitoredInfo").startsWith("Larch "));
        SearchResult operations = admin.search(OPS, SearchScope.ONE, "(objectClass=*)");
        assertEquals(OperationType.values().length, operations.getEntryCount());
        SearchResult top = admin.search("cn=Monitor", SearchScope.ONE, "(objectClass=monitorContainer)", "cn");
        List<String> containers = new ArrayList<>();
        top.getSearchEntries().forEach(e -> containers.add(e.getAttributeValue("cn")));
        assertTrue(
                containers.containsAll(List.of(
                        "Connections",
                        "Operations",
                        "Result Codes",
                        "Statistics",
                        "Queues",
                        "Time",
                        "Databases",
                        "Indexes",
                        "JVM")),
                containers.toString());
        // Filters are judged as on stored entries: an integer ordering match on a counter.
        SearchResult busy = admin.search(
                "cn=Monitor", SearchScope.SUB, "(&(objectClass=monitorOperation)(monitorOpCompleted>=1)(cn=Search))");
        assertEquals(1, busy.getEntryCount());
        assertEquals(
                "cn=Search,cn=Operations,cn=Monitor",
                busy.getSearchEntries().get(0).getDN());
        SearchResultEntry start = admin.getEntry("cn=Start,cn=Time,cn=Monitor", "monitorTimestamp");
        assertTrue(start.getAttributeValue("monitorTimestamp").matches("\\d{14}Z"));
        // Counters are operational, as in OpenLDAP: absent unless asked for.
        assertFalse(admin.getEntry("cn=Total,cn=Connections,cn=Monitor").hasAttribute("monitorCounter"));
    }

    @Test
    void rootDseNamesTheMonitorContext() throws Exception {
        SearchResultEntry dse = larch.anonymous().getEntry("", "monitorContext");
        assertEquals("cn=Monitor", dse.getAttributeValue("monitorContext"));
    }

    @Test
    void anonymousAndOrdinaryUsersFindNoMonitor() throws Exception {
        LDAPSearchException e =
                assertThrowsSearch(() -> larch.anonymous().search("cn=Monitor", SearchScope.BASE, "(objectClass=*)"));
        assertEquals(ResultCode.NO_SUCH_OBJECT, e.getResultCode());
        LDAPSearchException sub = assertThrowsSearch(
                () -> larch.anonymous().search("cn=Operations,cn=Monitor", SearchScope.SUB, "(objectClass=*)"));
        assertEquals(ResultCode.NO_SUCH_OBJECT, sub.getResultCode());
        // A bound user the access rules do not name is refused the same way.
        try (LDAPConnection jdoe = larch.server().boundAs("uid=jdoe,ou=people," + TestServer.SUFFIX, "jdoe-pw")) {
            assertEquals(
                    ResultCode.NO_SUCH_OBJECT,
                    assertThrowsSearch(() -> jdoe.search("cn=Monitor", SearchScope.SUB, "(objectClass=*)"))
                            .getResultCode());
        }
    }

    @Test
    void aTargetedAccessRuleOpensTheMonitor() throws Exception {
        try (LDAPConnection watcher = larch.server().boundAs(WATCHER, "watch-it")) {
            SearchResult all = watcher.search("cn=Monitor", SearchScope.SUB, "(objectClass=*)", "monitorCounter");
            assertTrue(all.getEntryCount() > 30, "entries: " + all.getEntryCount());
            SearchResultEntry total = watcher.getEntry("cn=Total,cn=Connections,cn=Monitor", "monitorCounter");
            assertTrue(Long.parseLong(total.getAttributeValue("monitorCounter")) >= 1);
        }
    }

    @Test
    void writesUnderTheMonitorAreRefused() throws Exception {
        LDAPConnection admin = larch.admin();
        assertEquals(
                ResultCode.UNWILLING_TO_PERFORM,
                assertThrowsLdap(() -> admin.add(
                                "cn=Extra,cn=Monitor",
                                new Attribute("objectClass", "monitoredObject"),
                                new Attribute("cn", "Extra")))
                        .getResultCode());
        assertEquals(
                ResultCode.UNWILLING_TO_PERFORM,
                assertThrowsLdap(() -> admin.modify(
                                "cn=Total,cn=Connections,cn=Monitor",
                                new Modification(ModificationType.REPLACE, "description", "x")))
                        .getResultCode());
        assertEquals(
                ResultCode.UNWILLING_TO_PERFORM,
                assertThrowsLdap(() -> admin.delete("cn=Monitor")).getResultCode());
        assertEquals(
                ResultCode.UNWILLING_TO_PERFORM,
                assertThrowsLdap(() -> admin.modifyDN("cn=Time,cn=Monitor", "cn=Clock", true))
                        .getResultCode());
        assertEquals(
                ResultCode.UNWILLING_TO_PERFORM,
                assertThrowsLdap(() -> admin.modifyDN(
                                "uid=jdoe,ou=people," + TestServer.SUFFIX, "uid=jdoe", true, "cn=Monitor"))
                        .getResultCode());
        // Nothing of the monitor reached the store.
        assertEquals(
                0,
                admin.search(TestServer.SUFFIX, SearchScope.SUB, "(|(cn=Monitor)(cn=Extra))")
                        .getEntryCount());
    }

    private interface LdapCall {
        void run() throws LDAPException;
    }

    private static LDAPException assertThrowsLdap(LdapCall call) {
        try {
            call.run();
        } catch (LDAPException e) {
            return e;
        }
        throw new AssertionError("expected an LDAP error");
    }

    private static LDAPSearchException assertThrowsSearch(LdapCall call) {
        try {
            call.run();
        } catch (LDAPSearchException e) {
            return e;
        } catch (LDAPException e) {
            throw new AssertionError("expected a search error, got " + e, e);
        }
        throw new AssertionError("expected a search error");
    }
}
