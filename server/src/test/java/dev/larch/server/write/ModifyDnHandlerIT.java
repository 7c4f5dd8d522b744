package dev.larch.server.write;

import java.util.Set;
import java.util.TreeSet;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPSearchException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.apache.directory.ldap.client.api.LdapNetworkConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Modify DN over the wire (RFC 4511 section 4.9): renames, subtree moves and their refusals. */
class ModifyDnHandlerIT {
    private static final String SUFFIX = TestServer.SUFFIX;
    private static final String PEOPLE = "ou=people," + SUFFIX;

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree();

    private static String person(String uid, String parent) {
        String dn = "uid=" + uid + "," + parent;
        larch.server()
                .add("dn: " + dn + "\nobjectClass: inetOrgPerson\nuid: " + uid + "\ncn: " + uid + "\nsn: " + uid
                        + "\nmail: " + uid + "@example.com\n");
        return dn;
    }

    private static String unit(String ou, String parent) {
        String dn = "ou=" + ou + "," + parent;
        larch.server().add("dn: " + dn + "\nobjectClass: organizationalUnit\nou: " + ou + "\n");
        return dn;
    }

    private static Set<String> values(String dn, String attribute) throws LDAPException {
        SearchResultEntry e = larch.admin().getEntry(dn, attribute);
        return new TreeSet<>(Set.of(e.getAttributeValues(attribute)));
    }

    private static Set<DN> subtree(String base, String filter) throws LDAPException {
        Set<DN> out = new TreeSet<>();
        for (SearchResultEntry e :
                larch.admin().search(base, SearchScope.SUB, filter, "1.1").getSearchEntries()) {
            out.add(e.getParsedDN());
        }
        return out;
    }

    private static ResultCode renameFails(String dn, String newRdn, boolean deleteOld, String newSuperior) {
        return assertThrows(LDAPException.class, () -> larch.admin().modifyDN(dn, newRdn, deleteOld, newSuperior))
                .getResultCode();
    }

    @Test
    void renameWithDeleteOldRdnReplacesTheNamingValue() throws Exception {
        String dn = person("before", PEOPLE);
        assertEquals(
                ResultCode.SUCCESS,
                larch.admin().modifyDN(dn, "uid=after", true).getResultCode());
        assertNull(larch.admin().getEntry(dn));
        assertEquals(Set.of("after"), values("uid=after," + PEOPLE, "uid"));
        assertEquals(Set.of(new DN("uid=after," + PEOPLE)), subtree(SUFFIX, "(uid=after)"));
        assertEquals(Set.of(), subtree(SUFFIX, "(uid=before)"));
    }

    @Test
    void renameWithoutDeleteOldRdnKeepsTheOldValue() throws Exception {
        String dn = person("keepold", PEOPLE);
        larch.admin().modifyDN(dn, "uid=keepnew", false);
        assertEquals(Set.of("keepold", "keepnew"), values("uid=keepnew," + PEOPLE, "uid"));
        assertEquals(Set.of(new DN("uid=keepnew," + PEOPLE)), subtree(SUFFIX, "(uid=keepold)"));
    }

    @Test
    void renameToAnotherNamingAttributeAddsItsValue() throws Exception {
        String dn = person("bycn", PEOPLE);
        larch.admin().modifyDN(dn, "cn=Named By Cn", true);
        SearchResultEntry e = larch.admin().getEntry("cn=Named By Cn," + PEOPLE, "uid", "cn");
        assertNotNull(e);
        assertEquals(Set.of("bycn", "Named By Cn"), new TreeSet<>(Set.of(e.getAttributeValues("cn"))));
        // uid was the old RDN and is removed; inetOrgPerson does not require it
        assertNull(e.getAttribute("uid"));
    }

    @Test
    void renameToAnRdnTheSchemaDoesNotAllowFails() throws Exception {
        String dn = person("nodc", PEOPLE);
        assertEquals(ResultCode.OBJECT_CLASS_VIOLATION, renameFails(dn, "dc=nodc", true, null));
        assertNotNull(larch.admin().getEntry(dn));
    }

    @Test
    void newSuperiorMovesTheWholeSubtree() throws Exception {
        String dept = unit("dept", SUFFIX);
        person("alice", dept);
        String team = unit("team", dept);
        person("bob", team);
        String target = unit("divisions", SUFFIX);

        assertEquals(
                ResultCode.SUCCESS,
                larch.admin().modifyDN(dept, "ou=dept", true, target).getResultCode());

        String moved = "ou=dept," + target;
        assertEquals(
                Set.of(
                        new DN(moved),
                        new DN("uid=alice," + moved),
                        new DN("ou=team," + moved),
                        new DN("uid=bob,ou=team," + moved)),
                subtree(moved, "(objectClass=*)"));
        // children are found under their new DNs, by base search and through indexes
        SearchResultEntry bob = larch.admin().getEntry("uid=bob,ou=team," + moved, "entryDN", "mail");
        assertNotNull(bob);
        assertEquals(new DN("uid=bob,ou=team," + moved), new DN(bob.getAttributeValue("entryDN")));
        assertEquals(Set.of(new DN("uid=bob,ou=team," + moved)), subtree(SUFFIX, "(mail=bob@example.com)"));
        assertEquals(Set.of(new DN("uid=alice," + moved)), subtree(SUFFIX, "(&(uid=alice)(ou:dn:=divisions))"));
        // the old DNs are gone
        assertNull(larch.admin().getEntry(dept));
        assertNull(larch.admin().getEntry("uid=bob," + team));
        LDAPSearchException e = assertThrows(
                LDAPSearchException.class, () -> larch.admin().search(team, SearchScope.SUB, "(objectClass=*)"));
        assertEquals(ResultCode.NO_SUCH_OBJECT, e.getResultCode());
        // and the moved entries can be changed and deleted under their new names
        larch.admin().delete("uid=bob,ou=team," + moved);
        larch.admin().delete("ou=team," + moved);
    }

    @Test
    void renamingAnEntryWithChildrenRewritesTheirDns() throws Exception {
        String old = unit("oldname", SUFFIX);
        person("carol", old);
        larch.admin().modifyDN(old, "ou=newname", true);
        assertEquals(
                Set.of(new DN("ou=newname," + SUFFIX), new DN("uid=carol,ou=newname," + SUFFIX)),
                subtree("ou=newname," + SUFFIX, "(objectClass=*)"));
        assertEquals(
                new DN("uid=carol,ou=newname," + SUFFIX),
                larch.admin()
                        .searchForEntry(SUFFIX, SearchScope.SUB, "(uid=carol)")
                        .getParsedDN());
    }

    @Test
    void existingTargetIsEntryAlreadyExists() throws Exception {
        String a = person("targeta", PEOPLE);
        person("targetb", PEOPLE);
        assertEquals(ResultCode.ENTRY_ALREADY_EXISTS, renameFails(a, "uid=targetb", true, null));
        assertEquals(ResultCode.ENTRY_ALREADY_EXISTS, renameFails(a, "UID=TargetB", true, PEOPLE));
        assertNotNull(larch.admin().getEntry(a));
    }

    @Test
    void movingBelowItselfIsUnwillingToPerform() throws Exception {
        String outer = unit("outer", SUFFIX);
        String inner = unit("inner", outer);
        assertEquals(ResultCode.UNWILLING_TO_PERFORM, renameFails(outer, "ou=outer", true, inner));
        assertEquals(ResultCode.UNWILLING_TO_PERFORM, renameFails(outer, "ou=outer", true, outer));
        assertNotNull(larch.admin().getEntry(inner));
    }

    @Test
    void renamingTheSuffixIsUnwillingToPerform() {
        assertEquals(ResultCode.UNWILLING_TO_PERFORM, renameFails(SUFFIX, "dc=renamed", true, null));
    }

    @Test
    void movingOutOfTheNamingContextIsRefused() throws Exception {
        String dn = person("emigrant", PEOPLE);
        ResultCode code = renameFails(dn, "uid=emigrant", true, "dc=elsewhere,dc=org");
        assertEquals(
                true,
                code.equals(ResultCode.UNWILLING_TO_PERFORM) || code.equals(ResultCode.NO_SUCH_OBJECT),
                code.toString());
        assertNotNull(larch.admin().getEntry(dn));
    }

    @Test
    void missingEntryOrNewSuperiorIsNoSuchObject() throws Exception {
        assertEquals(ResultCode.NO_SUCH_OBJECT, renameFails("uid=ghost," + PEOPLE, "uid=ghost2", true, null));
        String dn = person("homeless", PEOPLE);
        assertEquals(ResultCode.NO_SUCH_OBJECT, renameFails(dn, "uid=homeless", true, "ou=nowhere," + SUFFIX));
        assertNotNull(larch.admin().getEntry(dn));
    }

    @Test
    void nonAdministratorIsInsufficientAccessRights() throws Exception {
        String dn = person("fixed", PEOPLE);
        try (LDAPConnection anonymous = larch.server().anonymous()) {
            LDAPException e = assertThrows(LDAPException.class, () -> anonymous.modifyDN(dn, "uid=moved", true));
            assertEquals(ResultCode.INSUFFICIENT_ACCESS_RIGHTS, e.getResultCode());
        }
        assertNotNull(larch.admin().getEntry(dn));
    }

    @Test
    void apacheClientRenamesAndMoves() throws Exception {
        String dn = person("apache", PEOPLE);
        String dest = unit("apachedest", SUFFIX);
        try (LdapNetworkConnection c = larch.server().apache()) {
            c.bind(TestServer.ADMIN_DN, TestServer.ADMIN_PASSWORD);
            c.rename(dn, "uid=apache2");
            c.move("uid=apache2," + PEOPLE, dest);
        }
        assertNotNull(larch.admin().getEntry("uid=apache2," + dest));
        assertNull(larch.admin().getEntry("uid=apache2," + PEOPLE));
    }
}
