package dev.larch.server;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.config.LarchConfig;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A full store refuses writes with a clear answer, stays consistent, and grows with the config. */
class StoreFullIT {
    private static final String PEOPLE = "ou=people," + TestServer.SUFFIX;
    private static final long SMALL_MAP = 1L << 20;

    @TempDir
    Path dir;

    private static LarchConfig.Builder withMapSize(LarchConfig.Builder c, long mapSize) {
        return c.set("storage.map-size", mapSize).set("storage.durable-writes", true);
    }

    private static Entry person(String uid, int descriptionChars) {
        return new Entry(
                "uid=" + uid + "," + PEOPLE,
                new Attribute("objectClass", "inetOrgPerson"),
                new Attribute("uid", uid),
                new Attribute("cn", uid),
                new Attribute("sn", uid),
                new Attribute("description", "d".repeat(descriptionChars)));
    }

    @Test
    void aFullStoreRefusesWritesKeepsServingAndGrowsAfterARestartWithALargerMap() throws Exception {
        Path data = dir.resolve("data");
        List<String> acknowledged = new ArrayList<>();
        TestServer small = TestServer.start(data, c -> withMapSize(c, SMALL_MAP));
        try {
            small.add(TestServer.BASE_LDIF);
            try (LDAPConnection admin = small.admin()) {
                // Far larger than the map: refused, while there is still room for small entries.
                LDAPException tooBig =
                        assertThrows(LDAPException.class, () -> admin.add(person("huge", 3 * (int) SMALL_MAP)));
                assertEquals(ResultCode.UNWILLING_TO_PERFORM, tooBig.getResultCode());
                assertEquals("store is full: raise storage.map-size", tooBig.getDiagnosticMessage());
                admin.add(person("small", 10));
                acknowledged.add("small");

                LDAPException full = null;
                for (int i = 0; i < 1000 && full == null; i++) {
                    try {
                        admin.add(person("p" + i, 20_000));
                        acknowledged.add("p" + i);
                    } catch (LDAPException e) {
                        full = e;
                    }
                }
                assertNotNull(full, "1000 entries of 20 kB fitted in a 1 MiB map");
                assertEquals(ResultCode.UNWILLING_TO_PERFORM, full.getResultCode());
                assertEquals("store is full: raise storage.map-size", full.getDiagnosticMessage());
                // Reads go on.
                assertEquals(acknowledged.size(), count(admin));
            }
        } finally {
            small.close();
        }
        assertTrue(acknowledged.size() > 5, "only " + acknowledged.size() + " entries fitted");

        TestServer larger = TestServer.start(data, c -> withMapSize(c, 8 * SMALL_MAP));
        try (LDAPConnection admin = larger.admin()) {
            for (String uid : acknowledged) {
                assertNotNull(admin.getEntry("uid=" + uid + "," + PEOPLE), uid);
            }
            for (int i = 0; i < acknowledged.size(); i++) {
                admin.add(person("later" + i, 20_000));
            }
            assertEquals(2 * acknowledged.size(), count(admin));
        } finally {
            larger.close();
        }
    }

    private static int count(LDAPConnection c) throws LDAPException {
        return c.search(PEOPLE, SearchScope.ONE, "(objectClass=inetOrgPerson)", "1.1")
                .getEntryCount();
    }
}
