package dev.larch.server.read.psearch;

import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.unboundid.ldap.sdk.AddRequest;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DeleteRequest;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.controls.EntryChangeNotificationControl;
import com.unboundid.ldap.sdk.controls.PersistentSearchChangeType;
import com.unboundid.ldap.sdk.controls.PersistentSearchRequestControl;
import com.unboundid.ldap.sdk.controls.SubtreeDeleteRequestControl;
import com.unboundid.ldap.sdk.extensions.CancelExtendedRequest;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static dev.larch.server.read.psearch.Notifications.ecn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Persistent search (draft-ietf-ldapext-psearch-03) with entry change notification, through the
 * UnboundID SDK: each change type with its control, the change types asked for, the initial phase,
 * scope, filter and access control, aborted writes, and the ways a persistent search ends.
 */
class PersistentSearchIT {
    private static final String SUFFIX = TestServer.SUFFIX;
    private static final EnumSet<PersistentSearchChangeType> ALL = EnumSet.allOf(PersistentSearchChangeType.class);

    @RegisterExtension
    static final LarchServerExtension larch =
            LarchServerExtension.withBaseTree().configured(c -> c.set("integrity.reference-attributes", "member"));

    /** A fresh organizational unit for one test, so tests share nothing. */
    private static String unit(String name) throws LDAPException {
        String dn = "ou=" + name + "," + SUFFIX;
        larch.admin().add(dn, List.of(attr("objectClass", "organizationalUnit"), attr("ou", name)));
        return dn;
    }

    private static Attribute attr(String name, String... values) {
        return new Attribute(name, values);
    }

    private static AddRequest person(String dn, String uid, String description) {
        AddRequest add = new AddRequest(
                "uid=" + uid + "," + dn,
                List.of(
                        attr("objectClass", "inetOrgPerson"),
                        attr("uid", uid),
                        attr("cn", "User " + uid),
                        attr("sn", "S" + uid)));
        if (description != null) {
            add.addAttribute("description", description);
        }
        return add;
    }

    private static Modification describe(String description) {
        return new Modification(ModificationType.REPLACE, "description", description);
    }

    @Test
    void eachChangeTypeArrivesWithItsEntryChangeNotification() throws Exception {
        String unit = unit("kinds");
        try (LDAPConnection c = larch.server().admin()) {
            Notifications n = Notifications.start(c, unit, SearchScope.SUB, "(objectClass=inetOrgPerson)", ALL, true);
            c.add(person(unit, "ann", null));
            SearchResultEntry added = n.next();
            assertEquals("uid=ann," + unit, added.getDN());
            assertEquals(PersistentSearchChangeType.ADD, ecn(added).getChangeType());
            assertNull(ecn(added).getPreviousDN());

            c.modify("uid=ann," + unit, describe("changed"));
            SearchResultEntry modified = n.next();
            assertEquals(PersistentSearchChangeType.MODIFY, ecn(modified).getChangeType());
            assertEquals("changed", modified.getAttributeValue("description"));

            c.modifyDN("uid=ann," + unit, "uid=anne", true);
            SearchResultEntry renamed = n.next();
            assertEquals("uid=anne," + unit, renamed.getDN());
            assertEquals(PersistentSearchChangeType.MODIFY_DN, ecn(renamed).getChangeType());
            assertEquals("uid=ann," + unit, ecn(renamed).getPreviousDN());

            c.delete("uid=anne," + unit);
            SearchResultEntry deleted = n.next();
            assertEquals("uid=anne," + unit, deleted.getDN());
            assertEquals(PersistentSearchChangeType.DELETE, ecn(deleted).getChangeType());
            assertEquals("changed", deleted.getAttributeValue("description"), "a delete sends the entry as it was");
            n.assertQuiet(200);
            assertFalse(n.done.isDone(), "a persistent search does not end by itself");
        }
    }

    @Test
    void onlyTheChangeTypesAskedForArrive() throws Exception {
        String unit = unit("types");
        try (LDAPConnection c = larch.server().admin()) {
            Notifications n = Notifications.start(
                    c,
                    unit,
                    SearchScope.SUB,
                    "(objectClass=*)",
                    EnumSet.of(PersistentSearchChangeType.DELETE, PersistentSearchChangeType.MODIFY_DN),
                    true);
            c.add(person(unit, "bob", null));
            c.modify("uid=bob," + unit, describe("not sent"));
            c.modifyDN("uid=bob," + unit, "uid=rob", true);
            c.delete("uid=rob," + unit);
            assertEquals(PersistentSearchChangeType.MODIFY_DN, ecn(n.next()).getChangeType());
            assertEquals(PersistentSearchChangeType.DELETE, ecn(n.next()).getChangeType());
            n.assertQuiet(200);
        }
    }

    @Test
    void withoutChangesOnlyTheEntriesAlreadyThereComeFirst() throws Exception {
        String unit = unit("initial");
        larch.admin().add(person(unit, "old1", null));
        larch.admin().add(person(unit, "old2", null));
        try (LDAPConnection c = larch.server().admin()) {
            Notifications n = Notifications.start(c, unit, SearchScope.ONE, "(objectClass=inetOrgPerson)", ALL, false);
            SearchResultEntry first = n.next();
            SearchResultEntry second = n.next();
            assertEquals(List.of("uid=old1," + unit, "uid=old2," + unit), List.of(first.getDN(), second.getDN()));
            assertNull(EntryChangeNotificationControl.get(first), "initial entries carry no change notification");
            c.add(person(unit, "new", null));
            SearchResultEntry added = n.next();
            assertEquals("uid=new," + unit, added.getDN());
            assertEquals(PersistentSearchChangeType.ADD, ecn(added).getChangeType());
            assertFalse(n.done.isDone(), "the initial phase's end is not the search's end");
        }
    }

    @Test
    void scopeAndFilterChooseWhatIsSent() throws Exception {
        String unit = unit("scoped");
        String other = unit("elsewhere");
        larch.admin()
                .add(new AddRequest(
                        "ou=deeper," + unit, List.of(attr("objectClass", "organizationalUnit"), attr("ou", "deeper"))));
        try (LDAPConnection c = larch.server().admin()) {
            Notifications n = Notifications.start(c, unit, SearchScope.ONE, "(description=watched*)", ALL, true, "cn");
            c.add(person(other, "outside", "watched")); // another subtree
            c.add(person("ou=deeper," + unit, "deep", "watched")); // below one level
            c.add(person(unit, "plain", "other")); // does not match
            c.add(person(unit, "match", "watched"));
            SearchResultEntry e = n.next();
            assertEquals("uid=match," + unit, e.getDN());
            assertEquals(
                    List.of("cn"),
                    e.getAttributes().stream().map(a -> a.getName()).toList());
            // A modify that makes the entry leave the filter is not sent; one that makes it enter is.
            c.modify("uid=match," + unit, describe("left"));
            c.modify("uid=plain," + unit, describe("watched now"));
            assertEquals("uid=plain," + unit, n.next().getDN());
            n.assertQuiet(200);
        }
    }

    @Test
    void notificationsShowOnlyWhatTheClientMayRead() throws Exception {
        String unit = unit("guarded");
        larch.admin()
                .add(new AddRequest(
                        "ou=secret," + unit,
                        List.of(
                                attr("objectClass", "organizationalUnit"),
                                attr("ou", "secret"),
                                attr(
                                        "aci",
                                        "(targetattr=\"*\")(version 3.0; acl \"hidden\"; deny (read, search)"
                                                + " userdn=\"ldap:///anyone\";)"))));
        try (LDAPConnection anonymous = larch.server().anonymous();
                LDAPConnection admin = larch.server().admin()) {
            Notifications seen = Notifications.start(anonymous, unit, SearchScope.SUB, "(uid=*)", ALL, true);
            Notifications all = Notifications.start(admin, unit, SearchScope.SUB, "(uid=*)", ALL, true);
            // Refused inside the writer, so ordered after both registrations: a change after it is seen.
            assertThrows(LDAPException.class, () -> anonymous.modify(unit, describe("refused")));
            admin.modify(unit, describe("ordering")); // an organizational unit: (uid=*) does not match
            AddRequest withPassword = person(unit, "pat", null);
            withPassword.addAttribute("userPassword", "s3cret-Pass");
            admin.add(withPassword);
            admin.add(person("ou=secret," + unit, "hidden", null));
            admin.add(person(unit, "last", null));

            assertEquals("uid=pat," + unit, all.next().getDN());
            assertEquals("uid=hidden,ou=secret," + unit, all.next().getDN());
            assertEquals("uid=last," + unit, all.next().getDN());

            SearchResultEntry pat = seen.next();
            assertEquals("uid=pat," + unit, pat.getDN());
            assertTrue(pat.hasAttribute("cn"));
            assertFalse(pat.hasAttribute("userPassword"), "anonymous may not read userPassword");
            assertEquals("uid=last," + unit, seen.next().getDN(), "an entry anonymous may not read is not sent");
        }
    }

    @Test
    void anAbortedWriteSendsNothing() throws Exception {
        String unit = unit("aborted");
        try (LDAPConnection c = larch.server().admin()) {
            Notifications n = Notifications.start(c, unit, SearchScope.SUB, "(objectClass=*)", ALL, true);
            c.add(person(unit, "carl", null));
            assertEquals("uid=carl," + unit, n.next().getDN());
            LDAPException refused = assertThrows(
                    LDAPException.class,
                    () -> c.modify(
                            "uid=carl," + unit,
                            describe("ok"),
                            new Modification(ModificationType.ADD, "uidNumber", "1"))); // not allowed by its classes
            assertEquals(ResultCode.OBJECT_CLASS_VIOLATION, refused.getResultCode());
            assertThrows(LDAPException.class, () -> c.add(person(unit, "carl", null))); // exists
            // Refused after the entry went into the transaction (no add right): the insert is rolled back.
            try (LDAPConnection anonymous = larch.server().anonymous()) {
                LDAPException denied =
                        assertThrows(LDAPException.class, () -> anonymous.add(person(unit, "intruder", null)));
                assertEquals(ResultCode.INSUFFICIENT_ACCESS_RIGHTS, denied.getResultCode());
            }
            c.modify("uid=carl," + unit, describe("committed"));
            SearchResultEntry e = n.next();
            assertEquals("committed", e.getAttributeValue("description"), "the aborted writes were not sent");
            n.assertQuiet(200);
        }
    }

    @Test
    void renamingASubtreeNotifiesEveryEntryThatGotANewDn() throws Exception {
        String unit = unit("moving");
        larch.admin()
                .add(new AddRequest(
                        "ou=team," + unit, List.of(attr("objectClass", "organizationalUnit"), attr("ou", "team"))));
        larch.admin().add(person("ou=team," + unit, "dora", null));
        try (LDAPConnection c = larch.server().admin()) {
            Notifications n = Notifications.start(
                    c,
                    unit,
                    SearchScope.SUB,
                    "(objectClass=*)",
                    EnumSet.of(PersistentSearchChangeType.MODIFY_DN),
                    true);
            c.modifyDN("ou=team," + unit, "ou=crew", true);
            SearchResultEntry team = n.next();
            SearchResultEntry dora = n.next();
            assertEquals("ou=crew," + unit, team.getDN());
            assertEquals("ou=team," + unit, ecn(team).getPreviousDN());
            assertEquals("uid=dora,ou=crew," + unit, dora.getDN());
            assertEquals("uid=dora,ou=team," + unit, ecn(dora).getPreviousDN());
        }
    }

    @Test
    void abandonEndsItWithoutAnswerAndCancelEndsItCanceled() throws Exception {
        String unit = unit("ending");
        try (LDAPConnection c = larch.server().admin()) {
            Notifications abandoned = Notifications.start(c, unit, SearchScope.SUB, "(objectClass=*)", ALL, true);
            Notifications canceled = Notifications.start(c, unit, SearchScope.SUB, "(objectClass=*)", ALL, true);
            c.add(person(unit, "eve", null));
            abandoned.next();
            canceled.next();
            c.abandon(abandoned.id);
            assertEquals(
                    ResultCode.SUCCESS,
                    c.processExtendedOperation(new CancelExtendedRequest(canceled.id))
                            .getResultCode());
            SearchResult result = canceled.done.get(10, TimeUnit.SECONDS);
            assertEquals(ResultCode.CANCELED, result.getResultCode());
            c.delete("uid=eve," + unit);
            abandoned.assertQuiet(300);
            canceled.assertQuiet(10);
            assertFalse(abandoned.done.isDone(), "an abandoned operation gets no response");
        }
    }

    @Test
    void theClientsTimeLimitEndsIt() throws Exception {
        String unit = unit("timed");
        try (LDAPConnection c = larch.server().admin()) {
            Notifications n = new Notifications();
            SearchRequest r = new SearchRequest(n, unit, SearchScope.SUB, "(objectClass=*)");
            r.addControl(new PersistentSearchRequestControl(ALL, true, true));
            r.setTimeLimitSeconds(1);
            c.asyncSearch(r);
            SearchResult result = n.done.get(10, TimeUnit.SECONDS);
            assertEquals(ResultCode.TIME_LIMIT_EXCEEDED, result.getResultCode());
        }
    }

    @Test
    void aMissingBaseIsNoSuchObjectAndTheRootDseOffersTheControl() throws Exception {
        try (LDAPConnection c = larch.server().admin()) {
            Notifications n =
                    Notifications.start(c, "ou=nowhere," + SUFFIX, SearchScope.SUB, "(objectClass=*)", ALL, true);
            assertEquals(
                    ResultCode.NO_SUCH_OBJECT, n.done.get(10, TimeUnit.SECONDS).getResultCode());
            assertTrue(c.getRootDSE().supportsControl("2.16.840.1.113730.3.4.3"));
        }
    }

    @Test
    void aReferentialIntegrityRewriteIsNotifiedAsAModify() throws Exception {
        String unit = unit("linked");
        larch.admin().add(person(unit, "gus", null));
        larch.admin()
                .add(new AddRequest(
                        "cn=crew," + unit,
                        List.of(
                                attr("objectClass", "groupOfNames"),
                                attr("cn", "crew"),
                                attr("member", "uid=gus," + unit, "cn=nobody"))));
        try (LDAPConnection c = larch.server().admin()) {
            Notifications n =
                    Notifications.start(c, unit, SearchScope.SUB, "(objectClass=groupOfNames)", ALL, true, "member");
            c.delete("uid=gus," + unit); // the group loses its member in the same transaction
            SearchResultEntry group = n.next();
            assertEquals("cn=crew," + unit, group.getDN());
            assertEquals(PersistentSearchChangeType.MODIFY, ecn(group).getChangeType());
            assertEquals(List.of("cn=nobody"), List.of(group.getAttributeValues("member")));
        }
    }

    @Test
    void aSubtreeDeleteNotifiesEveryDeletedEntry() throws Exception {
        String unit = unit("felled");
        larch.admin().add(person(unit, "fay", null));
        try (LDAPConnection c = larch.server().admin()) {
            Notifications n = Notifications.start(
                    c, SUFFIX, SearchScope.SUB, "(objectClass=*)", EnumSet.of(PersistentSearchChangeType.DELETE), true);
            DeleteRequest delete = new DeleteRequest(unit);
            delete.addControl(new SubtreeDeleteRequestControl(true));
            c.delete(delete);
            assertEquals("uid=fay," + unit, n.next().getDN());
            assertEquals(unit, n.next().getDN());
        }
    }
}
