package dev.larch.server.ops;

import java.nio.file.Path;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import org.apache.directory.api.ldap.model.exception.LdapContextNotEmptyException;
import org.apache.directory.ldap.client.api.LdapNetworkConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Delete over the wire (RFC 4511 section 4.8): leaves only, with indexes cleaned up. */
class DeleteHandlerIT {
    private static final String PEOPLE = "ou=people," + TestServer.SUFFIX;

    @TempDir
    static Path dir;

    private static TestServer server;
    private static LDAPConnection admin;

    @BeforeAll
    static void start() throws Exception {
        server = TestServer.start(dir.resolve("data"));
        server.add(TestServer.BASE_LDIF);
        admin = server.admin();
    }

    @AfterAll
    static void stop() {
        admin.close();
        server.close();
    }

    private static void addPerson(String uid) {
        server.add("dn: uid=" + uid + "," + PEOPLE + "\nobjectClass: inetOrgPerson\nuid: " + uid + "\ncn: " + uid
                + "\nsn: " + uid + "\nmail: " + uid + "@example.com\n");
    }

    private static int count(String filter) throws LDAPException {
        return admin.search(TestServer.SUFFIX, SearchScope.SUB, filter, "1.1").getEntryCount();
    }

    @Test
    void leafIsDeletedWithItsIndexEntries() throws Exception {
        addPerson("leaf");
        assertEquals(1, count("(mail=leaf@example.com)"));
        assertEquals(ResultCode.SUCCESS, admin.delete("uid=leaf," + PEOPLE).getResultCode());
        assertNull(admin.getEntry("uid=leaf," + PEOPLE));
        assertEquals(0, count("(uid=leaf)"));
        assertEquals(0, count("(mail=leaf*)"));
        assertEquals(0, count("(cn=*lea*)"));
    }

    @Test
    void deletedDnCanBeAddedAgain() throws Exception {
        addPerson("again");
        admin.delete("uid=again," + PEOPLE);
        addPerson("again");
        assertEquals(1, count("(uid=again)"));
    }

    @Test
    void dnIsMatchedWhateverItsSpelling() throws Exception {
        addPerson("spelled");
        admin.delete("UID=Spelled , OU=People,DC=Example,DC=COM");
        assertNull(admin.getEntry("uid=spelled," + PEOPLE));
    }

    @Test
    void entryWithChildrenIsNotAllowedOnNonLeaf() throws Exception {
        addPerson("child");
        LDAPException e = assertThrows(LDAPException.class, () -> admin.delete(PEOPLE));
        assertEquals(ResultCode.NOT_ALLOWED_ON_NONLEAF, e.getResultCode());
        assertNotNull(admin.getEntry(PEOPLE));
        assertNotNull(admin.getEntry("uid=child," + PEOPLE));
    }

    @Test
    void missingEntryIsNoSuchObjectWithMatchedDn() throws Exception {
        LDAPException e = assertThrows(LDAPException.class, () -> admin.delete("uid=ghost," + PEOPLE));
        assertEquals(ResultCode.NO_SUCH_OBJECT, e.getResultCode());
        assertEquals(new DN(PEOPLE), new DN(e.getMatchedDN()));
    }

    @Test
    void nonAdministratorIsInsufficientAccessRights() throws Exception {
        addPerson("kept");
        try (LDAPConnection anonymous = server.anonymous()) {
            LDAPException e = assertThrows(LDAPException.class, () -> anonymous.delete("uid=kept," + PEOPLE));
            assertEquals(ResultCode.INSUFFICIENT_ACCESS_RIGHTS, e.getResultCode());
        }
        assertNotNull(admin.getEntry("uid=kept," + PEOPLE));
    }

    @Test
    void apacheClientDeletesAndIsRefusedOnNonLeaf() throws Exception {
        addPerson("apache");
        try (LdapNetworkConnection c = server.apache()) {
            c.bind(TestServer.ADMIN_DN, TestServer.ADMIN_PASSWORD);
            c.delete("uid=apache," + PEOPLE);
            assertThrows(LdapContextNotEmptyException.class, () -> c.delete(TestServer.SUFFIX));
        }
        assertNull(admin.getEntry("uid=apache," + PEOPLE));
    }
}
