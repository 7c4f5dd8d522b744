package dev.larch.server;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/** What a server acknowledged is there after {@code close()} and a new {@code start()} on the same directory. */
class RestartIT {
    private static final String PEOPLE = "ou=people," + TestServer.SUFFIX;

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree()
            .configured(TestServer::withDurableWrites)
            .adding(person("kept") + person("renamed") + person("deleted") + person("changed"));

    private static String person(String uid) {
        return "dn: uid=" + uid + "," + PEOPLE + "\nobjectClass: inetOrgPerson\nuid: " + uid + "\ncn: " + uid + "\nsn: "
                + uid + "\nmail: " + uid + "@example.com\n\n";
    }

    private static int count(LDAPConnection c, String filter) throws Exception {
        return c.search(TestServer.SUFFIX, SearchScope.SUB, filter, "1.1").getEntryCount();
    }

    @Test
    void acknowledgedWritesSurviveARestart() throws Exception {
        TestServer server = larch.server();
        try (LDAPConnection admin = server.admin()) {
            admin.modifyDN("uid=renamed," + PEOPLE, "uid=newname", true, "ou=groups," + TestServer.SUFFIX);
            admin.delete("uid=deleted," + PEOPLE);
            admin.modify(
                    "uid=changed," + PEOPLE, new Modification(ModificationType.REPLACE, "mail", "new@example.com"));
        }

        server.restart();

        try (LDAPConnection admin = server.admin()) {
            assertNotNull(admin.getEntry("uid=kept," + PEOPLE));
            assertNotNull(admin.getEntry("uid=newname,ou=groups," + TestServer.SUFFIX));
            assertNull(admin.getEntry("uid=renamed," + PEOPLE));
            assertNull(admin.getEntry("uid=deleted," + PEOPLE));
            assertEquals(
                    "new@example.com", admin.getEntry("uid=changed," + PEOPLE).getAttributeValue("mail"));
            // indexes came back with the entries
            assertEquals(1, count(admin, "(mail=new@example.com)"));
            assertEquals(0, count(admin, "(mail=changed@example.com)"));
            assertEquals(1, count(admin, "(uid=newname)"));
            assertEquals(0, count(admin, "(uid=deleted)"));
            assertEquals(3, count(admin, "(objectClass=inetOrgPerson)"));

            // new entries after the restart get fresh IDs and overwrite nothing
            SearchResultEntry before = admin.getEntry("uid=kept," + PEOPLE, "*", "+");
            server.add(person("afterrestart") + person("another"));
            assertEquals(5, count(admin, "(objectClass=inetOrgPerson)"));
            SearchResultEntry after = admin.getEntry("uid=kept," + PEOPLE, "*", "+");
            assertEquals(before.getAttributeValue("entryUUID"), after.getAttributeValue("entryUUID"));
            assertEquals("kept@example.com", after.getAttributeValue("mail"));
            assertNotNull(admin.getEntry("uid=newname,ou=groups," + TestServer.SUFFIX));
        }

        server.restart();

        try (LDAPConnection admin = server.admin()) {
            assertEquals(5, count(admin, "(objectClass=inetOrgPerson)"));
            assertEquals(8, count(admin, "(objectClass=*)"));
        }
    }
}
