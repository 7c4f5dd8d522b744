package dev.larch.server.auth;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.ResultCode;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A successful bind re-hashes a password stored in another scheme with the configured one
 * ({@code security.rehash-on-bind}, on by default; the test server hashes with PBKDF2-SHA256).
 */
class PasswordRehashIT {
    private static final String PEOPLE = "ou=people," + TestServer.SUFFIX;

    @RegisterExtension
    static final LarchServerExtension larch =
            LarchServerExtension.withBaseTree().adding(person("migrated", "SSHA") + person("current", "PBKDF2-SHA256"));

    private static String person(String uid, String scheme) {
        return "dn: uid=" + uid + "," + PEOPLE + "\nobjectClass: inetOrgPerson\nuid: " + uid + "\ncn: " + uid + "\nsn: "
                + uid + "\nuserPassword: "
                + new String(PasswordSchemes.hash(scheme, ("pw-" + uid).getBytes(UTF_8)), UTF_8)
                + "\n\n";
    }

    @Test
    void aBindWithAPasswordStoredAsSshaStoresItInTheConfiguredSchemeAndTheSamePasswordStillBinds() throws Exception {
        String dn = "uid=migrated," + PEOPLE;
        assertTrue(storedPassword(dn).startsWith("{SSHA}"), storedPassword(dn));
        try (LDAPConnection c = larch.server().boundAs(dn, "pw-migrated")) {
            assertTrue(c.isConnected());
        }
        long until = System.nanoTime() + 10_000_000_000L;
        while (!storedPassword(dn).startsWith("{PBKDF2-SHA256}") && System.nanoTime() < until) {
            Thread.sleep(20);
        }
        String now = storedPassword(dn);
        assertTrue(now.startsWith("{PBKDF2-SHA256}100000$"), now);
        try (LDAPConnection c = larch.server().anonymous()) {
            assertEquals(ResultCode.SUCCESS, c.bind(dn, "pw-migrated").getResultCode());
        }
    }

    @Test
    void aPasswordAlreadyInTheConfiguredSchemeIsLeftAsItIs() throws Exception {
        String dn = "uid=current," + PEOPLE;
        String before = storedPassword(dn);
        try (LDAPConnection c = larch.server().boundAs(dn, "pw-current")) {
            assertTrue(c.isConnected());
        }
        Thread.sleep(200);
        assertEquals(before, storedPassword(dn));
    }

    private static String storedPassword(String dn) throws Exception {
        try (LDAPConnection admin = larch.server().admin()) {
            Entry e = admin.getEntry(dn, "userPassword");
            String[] values = e.getAttributeValues("userPassword");
            assertEquals(1, values.length, e.toLDIFString());
            return values[0];
        }
    }
}
