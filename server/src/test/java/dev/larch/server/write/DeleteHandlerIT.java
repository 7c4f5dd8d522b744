package dev.larch.server.write;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.apache.directory.api.ldap.model.exception.LdapContextNotEmptyException;
import org.apache.directory.ldap.client.api.LdapNetworkConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Delete over the wire (RFC 4511 section 4.8): leaves only, with indexes cleaned up. */
class DeleteHandlerIT {
    private static final String PEOPLE = "ou=people," + TestServer.SUFFIX;

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree();

    private static void addPerson(String uid) {
        larch.server()
                .add("dn: uid=" + uid + "," + PEOPLE + "\nobjectClass: inetOrgPerson\nuid: " + uid + "\ncn: " + uid
                        + "\nsn: " + uid + "\nmail: " + uid + "@example.com\n");
    }

    private static int count(String filter) throws LDAPException {
        return larch.admin()
                .search(TestServer.SUFFIX, SearchScope.SUB, filter, "1.1")
                .getEntryCount();
    }

    @Test
    void leafIsDeletedWithItsIndexEntries() throws Exception {
        addPerson("leaf");
        assertEquals(1, count("(mail=leaf@example.com)"));
        assertEquals(
                ResultCode.SUCCESS, larch.admin().delete("uid=leaf," + PEOPLE).getResultCode());
        assertNull(larch.admin().getEntry("uid=leaf," + PEOPLE));
        assertEquals(0, count("(uid=leaf)"));
        assertEquals(0, count("(mail=leaf*)"));
        assertEquals(0, count("(cn=*lea*)"));
    }

    @Test
    void deletedDnCanBeAddedAgain() throws Exception {
        addPerson("again");
        larch.admin().delete("uid=again," + PEOPLE);
        addPerson("again");
        assertEquals(1, count("(uid=again)"));
    }

    @Test
    void dnIsMatchedWhateverItsSpelling() throws Exception {
        addPerson("spelled");
        larch.admin().delete("UID=Spelled , OU=People,DC=Example,DC=COM");
        assertNull(larch.admin().getEntry("uid=spelled," + PEOPLE));
    }

    @Test
    void entryWithChildrenIsNotAllowedOnNonLeaf() throws Exception {
        addPerson("child");
        LDAPException e = assertThrows(LDAPException.class, () -> larch.admin().delete(PEOPLE));
        assertEquals(ResultCode.NOT_ALLOWED_ON_NONLEAF, e.getResultCode());
        assertNotNull(larch.admin().getEntry(PEOPLE));
        assertNotNull(larch.admin().getEntry("uid=child," + PEOPLE));
    }

    @Test
    void missingEntryIsNoSuchObjectWithMatchedDn() throws Exception {
        LDAPException e = assertThrows(LDAPException.class, () -> larch.admin().delete("uid=ghost," + PEOPLE));
        assertEquals(ResultCode.NO_SUCH_OBJECT, e.getResultCode());
        assertEquals(new DN(PEOPLE), new DN(e.getMatchedDN()));
    }

    @Test
    void nonAdministratorIsInsufficientAccessRights() throws Exception {
        addPerson("kept");
        try (LDAPConnection anonymous = larch.server().anonymous()) {
            LDAPException e = assertThrows(LDAPException.class, () -> anonymous.delete("uid=kept," + PEOPLE));
            assertEquals(ResultCode.INSUFFICIENT_ACCESS_RIGHTS, e.getResultCode());
        }
        assertNotNull(larch.admin().getEntry("uid=kept," + PEOPLE));
    }

    @Test
    void apacheClientDeletesAndIsRefusedOnNonLeaf() throws Exception {
        addPerson("apache");
        try (LdapNetworkConnection c = larch.server().apache()) {
            c.bind(TestServer.ADMIN_DN, TestServer.ADMIN_PASSWORD);
            c.delete("uid=apache," + PEOPLE);
            assertThrows(LdapContextNotEmptyException.class, () -> c.delete(TestServer.SUFFIX));
        }
        assertNull(larch.admin().getEntry("uid=apache," + PEOPLE));
    }
}
