package dev.larch.e2e;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.unboundid.ldap.sdk.AddRequest;
import com.unboundid.ldap.sdk.AsyncRequestID;
import com.unboundid.ldap.sdk.AsyncSearchResultListener;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.CompareRequest;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.DeleteRequest;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPResult;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ModifyDNRequest;
import com.unboundid.ldap.sdk.ModifyRequest;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchResultReference;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.controls.AssertionRequestControl;
import com.unboundid.ldap.sdk.controls.MatchedValuesFilter;
import com.unboundid.ldap.sdk.controls.MatchedValuesRequestControl;
import com.unboundid.ldap.sdk.controls.PersistentSearchChangeType;
import com.unboundid.ldap.sdk.controls.PersistentSearchRequestControl;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The access-control matrix over the wire: five clients (anonymous, a user on their own entry, another
 * user, a member of a nested group, the administrator) by the operations (read, search, compare,
 * write, add, delete, modify DN) on allowed and denied attributes and subtrees, every cell asserted.
 * The class owns {@code ou=acl}; its ACIs sit on that entry, on top of the built-in global rules.
 */
@ExtendWith(SharedServer.class)
class AccessControlMatrixIT {
    static final String ACL = "ou=acl," + TestData.SUFFIX;
    static final String PEOPLE = "ou=people," + ACL;
    static final String GROUPS = "ou=groups," + ACL;
    static final String OPEN = "ou=open," + ACL;
    static final String SECRET = "ou=secret," + ACL;
    static final String ALICE = "uid=alice," + PEOPLE;
    static final String BOB = "uid=bob," + PEOPLE;
    static final String GINA = "uid=gina," + PEOPLE;
    static final String EDITORS = "cn=editors," + GROUPS;
    static final String CLUB = "cn=club," + GROUPS;
    static final String DORA = "uid=dora," + PEOPLE;
    static final String HIDDEN_GROUP = "cn=hidden-group," + SECRET;
    static final String BRIDGE = "cn=bridge," + SECRET;
    static final String OUTER = "cn=outer," + GROUPS;
    static final String ATTIC = "ou=attic," + ACL;
    static final String BOARD = "cn=board," + OPEN;
    static final String IN_CHAIN = "1.2.840.113556.1.4.1941";
    static final String LOCKOUT = "cn=lockout," + ACL;
    static final String PLAIN = "cn=plain," + ACL;

    /** Who acts. */
    enum Who {
        ANONYMOUS,
        SELF,
        OTHER,
        MEMBER,
        ADMIN
    }

    static final String ACIS = """
            aci: (target = "ldap:///ou=secret,ou=acl,dc=example,dc=com")(version 3.0; acl "secret subtree"; deny (all) userdn = "ldap:///anyone";)
            aci: (targetattr = "mail || description || userPassword")(version 3.0; acl "self edit"; allow (write) userdn = "ldap:///self";)
            aci: (target = "ldap:///ou=open,ou=acl,dc=example,dc=com")(targetscope = "subordinate")(version 3.0; acl "editors"; allow (write, add, delete) groupdn = "ldap:///cn=editors,ou=groups,ou=acl,dc=example,dc=com";)
            aci: (targetattr = "telephoneNumber")(version 3.0; acl "no phones for anonymous"; deny (read, search, compare) userdn = "ldap:///anyone" and not userdn = "ldap:///all";)
            aci: (target = "ldap:///cn=club,ou=groups,ou=acl,dc=example,dc=com")(targetattr = "member")(version 3.0; acl "join the club"; allow (selfwrite) userdn = "ldap:///all";)
            aci: (target = "ldap:///cn=ghost,ou=attic,ou=acl,dc=example,dc=com")(version 3.0; acl "ghost"; deny (all) userdn = "ldap:///anyone";)
            aci: (target = "ldap:///cn=board,ou=open,ou=acl,dc=example,dc=com")(targetattr = "*")(version 3.0; acl "editors edit the board"; allow (write) groupdn = "ldap:///cn=editors,ou=groups,ou=acl,dc=example,dc=com";)
            """;

    static int port;
    static String adminPassword;
    static final AtomicInteger CELLS = new AtomicInteger();

    @BeforeAll
    static void loadTheAclSubtree(SharedServer.Server server) throws Exception {
        port = server.port();
        adminPassword = server.adminPassword();
        try (LDAPConnection admin = connect(Who.ADMIN)) {
            admin.add(ldif("dn: " + ACL, "objectClass: organizationalUnit", "ou: acl"));
            admin.modify(
                    ACL,
                    new Modification(
                            ModificationType.ADD,
                            "aci",
                            ACIS.lines().map(l -> l.substring("aci: ".length())).toArray(String[]::new)));
            admin.add(ldif("dn: " + PEOPLE, "objectClass: organizationalUnit", "ou: people"));
            admin.add(ldif(
                    "dn: " + LOCKOUT,
                    "objectClass: device",
                    "objectClass: pwdPolicy",
                    "cn: lockout",
                    "pwdAttribute: userPassword",
                    "pwdLockout: TRUE",
                    "pwdMaxFailure: 2",
                    "pwdLockoutDuration: 0"));
            for (String uid : List.of("alice", "bob", "gina", "dora")) {
                admin.add(ldif(
                        "dn: uid=" + uid + "," + PEOPLE,
                        "objectClass: inetOrgPerson",
                        "uid: " + uid,
                        "cn: " + uid,
                        "sn: " + uid,
                        "mail: " + uid + "@example.com",
                        "telephoneNumber: +1 555 0" + (100 + uid.length()),
                        "userPassword: " + ssha(uid + "-pw")));
            }
            admin.modify(DORA, new Modification(ModificationType.ADD, "pwdPolicySubentry", LOCKOUT));
            // Account state of alice's own, which she may read and others may not.
            admin.add(ldif(
                    "dn: " + PLAIN,
                    "objectClass: device",
                    "objectClass: pwdPolicy",
                    "cn: plain",
                    "pwdAttribute: userPassword"));
            admin.modify(ALICE, new Modification(ModificationType.ADD, "pwdPolicySubentry", PLAIN));
            admin.add(ldif("dn: " + GROUPS, "objectClass: organizationalUnit", "ou: groups"));
            admin.add(ldif("dn: cn=inner," + GROUPS, "objectClass: groupOfNames", "cn: inner", "member: " + GINA));
            admin.add(ldif("dn: " + EDITORS, "objectClass: groupOfNames", "cn: editors", "member: cn=inner," + GROUPS));
            admin.add(ldif("dn: " + CLUB, "objectClass: groupOfNames", "cn: club", "member: cn=inner," + GROUPS));
            admin.add(ldif("dn: " + OPEN, "objectClass: organizationalUnit", "ou: open"));
            admin.add(ldif("dn: " + SECRET, "objectClass: organizationalUnit", "ou: secret"));
            admin.add(ldif("dn: cn=hidden," + SECRET, "objectClass: organizationalRole", "cn: hidden"));
            admin.add(ldif("dn: cn=doomed," + SECRET, "objectClass: organizationalRole", "cn: doomed"));
            // A group nobody but the administrator may read, and one that bridges dora into a visible group.
            admin.add(ldif("dn: " + HIDDEN_GROUP, "objectClass: groupOfNames", "cn: hidden-group", "member: " + ALICE));
            admin.add(ldif("dn: " + BRIDGE, "objectClass: groupOfNames", "cn: bridge", "member: " + DORA));
            admin.add(ldif("dn: " + OUTER, "objectClass: groupOfNames", "cn: outer", "member: " + BRIDGE));
            // A visible entry whose only child is hidden from everyone but the administrator.
            admin.add(ldif("dn: " + ATTIC, "objectClass: organizationalUnit", "ou: attic"));
            admin.add(ldif("dn: cn=ghost," + ATTIC, "objectClass: organizationalRole", "cn: ghost"));
            admin.add(ldif("dn: " + BOARD, "objectClass: organizationalRole", "cn: board"));
            for (Who who : Who.values()) {
                String name = who.name().toLowerCase(Locale.ROOT);
                admin.add(
                        ldif("dn: cn=del-" + name + "," + OPEN, "objectClass: organizationalRole", "cn: del-" + name));
                admin.add(ldif("dn: cn=mv-" + name + "," + OPEN, "objectClass: organizationalRole", "cn: mv-" + name));
                admin.add(ldif("dn: cn=go-" + name + "," + OPEN, "objectClass: organizationalRole", "cn: go-" + name));
            }
        }
    }

    @AfterAll
    static void reportTheMatrixSize() {
        System.out.println("access-control matrix: " + CELLS.get() + " cells asserted");
    }

    // ---- read -----------------------------------------------------------------------------------

    @Test
    void readAnAllowedAttribute() throws Exception {
        expect(who -> has(who, ALICE, "mail"), Map.of(), true);
    }

    @Test
    void readAPasswordIsForTheAdministratorOnly() throws Exception {
        expect(who -> has(who, ALICE, "userPassword"), only(Who.ADMIN, true), false);
    }

    @Test
    void readAnAttributeDeniedToAnonymous() throws Exception {
        expect(who -> has(who, ALICE, "telephoneNumber"), only(Who.ANONYMOUS, false), true);
    }

    @Test
    void readTheSecretSubtreeFindsNothingButForTheAdministrator() throws Exception {
        expect(who -> count(who, SECRET, SearchScope.SUB, "(|(cn=hidden)(ou=secret))"), only(Who.ADMIN, 2), 0);
    }

    // ---- search ---------------------------------------------------------------------------------

    @Test
    void searchOnAnAttributeDeniedToAnonymousIsUndefinedForThem() throws Exception {
        expect(who -> count(who, PEOPLE, SearchScope.ONE, "(telephoneNumber=+1 555 0105)"), only(Who.ANONYMOUS, 0), 1);
    }

    @Test
    void searchOnAPasswordFindsNothingButForTheAdministrator() throws Exception {
        expect(who -> count(who, PEOPLE, SearchScope.ONE, "(userPassword=*)"), only(Who.ADMIN, 4), 0);
    }

    @Test
    void searchWithNotOnAPasswordIsNoOracleEither() throws Exception {
        expect(who -> count(who, PEOPLE, SearchScope.ONE, "(&(uid=*)(!(userPassword=*)))"), Map.of(), 0);
    }

    // ---- compare --------------------------------------------------------------------------------

    @Test
    void compareAnAllowedAttribute() throws Exception {
        expect(who -> compare(who, ALICE, "mail", "alice@example.com"), Map.of(), ResultCode.COMPARE_TRUE);
    }

    @Test
    void compareAPasswordIsRefused() throws Exception {
        expect(
                who -> compare(who, ALICE, "userPassword", "wrong"),
                only(Who.ADMIN, ResultCode.COMPARE_FALSE),
                ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }

    @Test
    void compareInTheSecretSubtreeIsNoSuchObject() throws Exception {
        expect(
                who -> compare(who, "cn=hidden," + SECRET, "cn", "hidden"),
                only(Who.ADMIN, ResultCode.COMPARE_TRUE),
                ResultCode.NO_SUCH_OBJECT);
    }

    // ---- write ----------------------------------------------------------------------------------

    @Test
    void writeOwnMail() throws Exception {
        expect(
                who -> modify(who, ALICE, ModificationType.REPLACE, "mail", "alice@example.com"),
                Map.of(Who.SELF, ResultCode.SUCCESS, Who.ADMIN, ResultCode.SUCCESS),
                ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }

    @Test
    void writeOwnNameIsNotAllowed() throws Exception {
        expect(
                who -> modify(who, ALICE, ModificationType.REPLACE, "cn", "alice"),
                only(Who.ADMIN, ResultCode.SUCCESS),
                ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }

    @Test
    void writeOwnPassword() throws Exception {
        expect(
                // Cleartext, as a user must send it (the server hashes it; a {SCHEME} value is the admin's alone).
                who -> modify(who, ALICE, ModificationType.REPLACE, "userPassword", "alice-pw"),
                Map.of(Who.SELF, ResultCode.SUCCESS, Who.ADMIN, ResultCode.SUCCESS),
                ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }

    @Test
    void writeInTheSecretSubtreeIsNoSuchObject() throws Exception {
        expect(
                who -> modify(who, "cn=hidden," + SECRET, ModificationType.REPLACE, "description", "x"),
                only(Who.ADMIN, ResultCode.SUCCESS),
                ResultCode.NO_SUCH_OBJECT);
    }

    @Test
    void selfwriteAddsOnlyTheWritersOwnDnToAGroup() throws Exception {
        expect(
                who -> who == Who.ANONYMOUS
                        ? modify(who, CLUB, ModificationType.ADD, "member", BOB)
                        : modify(who, CLUB, ModificationType.ADD, "member", dnOf(who)),
                Map.of(
                        Who.SELF, ResultCode.SUCCESS,
                        Who.OTHER, ResultCode.SUCCESS,
                        Who.MEMBER, ResultCode.SUCCESS,
                        Who.ADMIN, ResultCode.SUCCESS),
                ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }

    @Test
    void selfwriteDoesNotAddSomeoneElse() throws Exception {
        expect(
                who -> modify(
                        who,
                        CLUB,
                        ModificationType.ADD,
                        "member",
                        "uid=someone-" + who.name().toLowerCase(Locale.ROOT) + "," + PEOPLE),
                only(Who.ADMIN, ResultCode.SUCCESS),
                ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }

    @Test
    void writeAciIsForTheAdministrator() throws Exception {
        expect(
                who -> modify(
                        who,
                        OPEN,
                        ModificationType.ADD,
                        "aci",
                        "(targetattr = \"description\")(version 3.0; acl \"by " + who
                                + "\"; allow (write) userdn = \"ldap:///self\";)"),
                only(Who.ADMIN, ResultCode.SUCCESS),
                ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }

    // ---- add, delete, modify DN -----------------------------------------------------------------

    @Test
    void addInTheOpenSubtreeIsForEditors() throws Exception {
        expect(
                who -> add(who, "cn=new-" + who.name().toLowerCase(Locale.ROOT) + "," + OPEN),
                Map.of(Who.MEMBER, ResultCode.SUCCESS, Who.ADMIN, ResultCode.SUCCESS),
                ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }

    @Test
    void addElsewhereIsForTheAdministrator() throws Exception {
        expect(
                who -> add(who, "cn=new-" + who.name().toLowerCase(Locale.ROOT) + "," + PEOPLE),
                only(Who.ADMIN, ResultCode.SUCCESS),
                ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }

    @Test
    void deleteInTheOpenSubtreeIsForEditors() throws Exception {
        expect(
                who -> delete(who, "cn=del-" + who.name().toLowerCase(Locale.ROOT) + "," + OPEN),
                Map.of(Who.MEMBER, ResultCode.SUCCESS, Who.ADMIN, ResultCode.SUCCESS),
                ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }

    @Test
    void deleteInTheSecretSubtreeIsNoSuchObject() throws Exception {
        expect(
                who -> delete(who, "cn=doomed," + SECRET),
                only(Who.ADMIN, ResultCode.SUCCESS),
                ResultCode.NO_SUCH_OBJECT);
    }

    @Test
    void renameInTheOpenSubtreeIsForEditors() throws Exception {
        expect(
                who -> rename(who, "cn=mv-" + who.name().toLowerCase(Locale.ROOT) + "," + OPEN, null),
                Map.of(Who.MEMBER, ResultCode.SUCCESS, Who.ADMIN, ResultCode.SUCCESS),
                ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }

    @Test
    void moveOutOfTheOpenSubtreeNeedsAddWhereItGoes() throws Exception {
        expect(
                who -> rename(who, "cn=go-" + who.name().toLowerCase(Locale.ROOT) + "," + OPEN, PEOPLE),
                only(Who.ADMIN, ResultCode.SUCCESS),
                ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }

    // ---- reading around access control (each must answer as if the hidden thing did not exist) ----

    @Test
    void memberOfAHiddenGroupListsNoMembers() throws Exception {
        expect(who -> count(who, PEOPLE, SearchScope.ONE, "(memberOf=" + HIDDEN_GROUP + ")"), only(Who.ADMIN, 1), 0);
    }

    @Test
    void inChainMemberOfAHiddenGroupListsNoMembers() throws Exception {
        expect(
                who -> count(who, PEOPLE, SearchScope.ONE, "(memberOf:" + IN_CHAIN + ":=" + HIDDEN_GROUP + ")"),
                only(Who.ADMIN, 1),
                0);
    }

    @Test
    void inChainMembershipNeverPassesThroughAHiddenGroup() throws Exception {
        expect(
                who -> count(who, GROUPS, SearchScope.ONE, "(member:" + IN_CHAIN + ":=" + DORA + ")"),
                only(Who.ADMIN, 1),
                0);
    }

    @Test
    void aBaseSearchOnAHiddenEntryAnswersAsOnAMissingOne() throws Exception {
        expect(
                who -> searchOutcome(who, "cn=hidden," + SECRET, SearchScope.BASE),
                only(Who.ADMIN, "success matched="),
                "noSuchObject matched=" + normalized(ACL));
        expect(
                who -> searchOutcome(who, "cn=missing," + SECRET, SearchScope.BASE),
                only(Who.ADMIN, "noSuchObject matched=" + normalized(SECRET)),
                "noSuchObject matched=" + normalized(ACL));
        expect(
                who -> searchOutcome(who, SECRET, SearchScope.SUB),
                only(Who.ADMIN, "success matched="),
                "noSuchObject matched=" + normalized(ACL));
    }

    @Test
    void matchedDnNamesOnlyAnAncestorTheClientMayRead() throws Exception {
        String below = "cn=x,cn=hidden," + SECRET;
        String asAdmin = "noSuchObject matched=" + normalized("cn=hidden," + SECRET);
        String asOthers = "noSuchObject matched=" + normalized(ACL);
        expect(who -> searchOutcome(who, below, SearchScope.BASE), only(Who.ADMIN, asAdmin), asOthers);
        expect(
                who -> outcomeWithMatch(who, c -> c.compare(new CompareRequest(below, "cn", "x"))),
                only(Who.ADMIN, asAdmin),
                asOthers);
        expect(
                who -> outcomeWithMatch(
                        who,
                        c -> c.modify(new ModifyRequest(
                                below, new Modification(ModificationType.REPLACE, "description", "x")))),
                only(Who.ADMIN, asAdmin),
                asOthers);
        expect(who -> outcomeWithMatch(who, c -> c.delete(below)), only(Who.ADMIN, asAdmin), asOthers);
    }

    @Test
    void anAssertionOnAnAttributeTheClientMayNotReadJudgesItAbsent() throws Exception {
        String phone = "(telephoneNumber=+1 555 0105)";
        expect(
                who -> assertedRead(who, ALICE, phone),
                only(Who.ANONYMOUS, ResultCode.ASSERTION_FAILED),
                ResultCode.SUCCESS);
        expect(
                who -> assertedRead(who, ALICE, "(!" + phone + ")"),
                only(Who.ANONYMOUS, ResultCode.SUCCESS),
                ResultCode.ASSERTION_FAILED);
        expect(
                who -> assertedRead(who, ALICE, "(memberOf=" + HIDDEN_GROUP + ")"),
                only(Who.ADMIN, ResultCode.SUCCESS),
                ResultCode.ASSERTION_FAILED);
    }

    @Test
    void anAssertionOnAHiddenEntryIsNoSuchObjectWhatItsFilter() throws Exception {
        String hidden = "cn=hidden," + SECRET;
        for (String filter : List.of("(cn=nope)", "(cn=hidden)")) {
            expect(
                    who -> outcome(who, c -> {
                        CompareRequest compare = new CompareRequest(hidden, "cn", "hidden");
                        compare.addControl(new AssertionRequestControl(filter));
                        return c.compare(compare);
                    }),
                    only(
                            Who.ADMIN,
                            filter.equals("(cn=hidden)") ? ResultCode.COMPARE_TRUE : ResultCode.ASSERTION_FAILED),
                    ResultCode.NO_SUCH_OBJECT);
        }
        expect(
                who -> outcome(who, c -> {
                    DeleteRequest delete = new DeleteRequest(hidden);
                    delete.addControl(new AssertionRequestControl("(cn=nope)"));
                    return c.delete(delete);
                }),
                only(Who.ADMIN, ResultCode.ASSERTION_FAILED),
                ResultCode.NO_SUCH_OBJECT);
    }

    @Test
    void hasSubordinatesCountsOnlyChildrenTheClientMaySee() throws Exception {
        expect(who -> attribute(who, ATTIC, "hasSubordinates"), only(Who.ADMIN, "TRUE"), "FALSE");
    }

    @Test
    void aPersistentSearchIsNotToldWhenAnAccountFailsOrLocks() throws Exception {
        List<BlockingQueue<SearchResultEntry>> told = List.of(new LinkedBlockingQueue<>(), new LinkedBlockingQueue<>());
        List<Who> watchers = List.of(Who.ANONYMOUS, Who.OTHER);
        List<LDAPConnection> open = new ArrayList<>();
        try (LDAPConnection admin = connect(Who.ADMIN)) {
            for (int w = 0; w < watchers.size(); w++) {
                LDAPConnection watcher = connect(watchers.get(w));
                open.add(watcher);
                SearchRequest watch = new SearchRequest(
                        new Collecting(told.get(w)), DORA, SearchScope.BASE, "(objectClass=*)", "description");
                watch.addControl(
                        new PersistentSearchRequestControl(PersistentSearchChangeType.allChangeTypes(), true, false));
                watcher.asyncSearch(watch);
                waitUntilWatching(admin, told.get(w));
            }
            // The second watcher's ready markers also reach the first, maybe late: settle both before the attack.
            admin.modify(DORA, new Modification(ModificationType.REPLACE, "description", "settled"));
            for (BlockingQueue<SearchResultEntry> queue : told) {
                SearchResultEntry e;
                do {
                    e = queue.poll(30, TimeUnit.SECONDS);
                } while (e != null && !"settled".equals(e.getAttributeValue("description")));
                assertTrue(e != null, "a watcher never saw the settled marker");
            }
            // Failed binds until the policy locks dora: the server writes pwdFailureTime, then pwdAccountLockedTime.
            for (int i = 0; i < 3; i++) {
                try (LDAPConnection guesser = connect(Who.ANONYMOUS)) {
                    guesser.bind(DORA, "wrong-" + i);
                } catch (LDAPException expected) {
                    // invalidCredentials
                }
            }
            for (int i = 0;
                    i < 3_000 && !admin.getEntry(DORA, "pwdAccountLockedTime").hasAttribute("pwdAccountLockedTime");
                    i++) {
                Thread.sleep(10);
            }
            assertTrue(
                    admin.getEntry(DORA, "pwdAccountLockedTime").hasAttribute("pwdAccountLockedTime"),
                    "dora never locked");
            admin.modify(DORA, new Modification(ModificationType.REPLACE, "description", "marker"));
            for (int w = 0; w < watchers.size(); w++) {
                SearchResultEntry first = told.get(w).poll(30, TimeUnit.SECONDS);
                assertTrue(first != null, "no notification at all for " + watchers.get(w));
                // Notifications follow commit order: a policy state change told would come before the marker.
                assertEquals(
                        "marker", first.getAttributeValue("description"), watchers.get(w) + " was told of the lock");
                CELLS.incrementAndGet();
            }
        } finally {
            open.forEach(LDAPConnection::close);
        }
    }

    /** Collects the entries a persistent search is sent. */
    private static final class Collecting implements AsyncSearchResultListener {
        private static final long serialVersionUID = 1L;
        private final transient BlockingQueue<SearchResultEntry> told;

        Collecting(BlockingQueue<SearchResultEntry> told) {
            this.told = told;
        }

        @Override
        public void searchEntryReturned(SearchResultEntry entry) {
            told.add(entry);
        }

        @Override
        public void searchReferenceReturned(SearchResultReference reference) {}

        @Override
        public void searchResultReceived(AsyncRequestID requestID, SearchResult result) {}
    }

    @Test
    void readTheRulesAndAccountStateIsNotForEveryone() throws Exception {
        expect(who -> has(who, ACL, "aci"), only(Who.ADMIN, true), false);
        expect(who -> has(who, ALICE, "pwdPolicySubentry"), Map.of(Who.ADMIN, true, Who.SELF, true), false);
    }

    @Test
    void writeAciNeedsARuleThatNamesIt() throws Exception {
        expect(
                who -> modify(who, BOARD, ModificationType.REPLACE, "description", "by " + who),
                Map.of(Who.MEMBER, ResultCode.SUCCESS, Who.ADMIN, ResultCode.SUCCESS),
                ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
        expect(
                who -> modify(
                        who,
                        BOARD,
                        ModificationType.ADD,
                        "aci",
                        "(targetattr = \"description\")(version 3.0; acl \"by " + who
                                + "\"; allow (write) userdn = \"ldap:///all\";)"),
                only(Who.ADMIN, ResultCode.SUCCESS),
                ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }

    @Test
    void aTargetfilterNestedTooDeepIsRefusedNamingTheBound() throws Exception {
        String deep = "(&".repeat(5_000) + "(cn=x)" + ")".repeat(5_000);
        try (LDAPConnection admin = connect(Who.ADMIN)) {
            LDAPException e = assertThrows(
                    LDAPException.class,
                    () -> admin.modify(
                            OPEN,
                            new Modification(
                                    ModificationType.ADD,
                                    "aci",
                                    "(targetfilter = \"" + deep
                                            + "\")(version 3.0; acl \"deep\"; allow (read) userdn = \"ldap:///all\";)")));
            assertEquals(ResultCode.INVALID_ATTRIBUTE_SYNTAX, e.getResultCode(), e.getMessage());
            assertTrue(
                    e.getDiagnosticMessage().contains("targetfilter nests deeper than 32"), e.getDiagnosticMessage());
        }
    }

    @Test
    void filtersInsideControlsAreHeldToTheSearchFilterBounds() throws Exception {
        // Built as an object: the client's own filter parser stops at a depth of its own.
        Filter deep = Filter.createEqualityFilter("cn", "x");
        for (int i = 0; i < 150; i++) {
            deep = Filter.createNOTFilter(deep);
        }
        try (LDAPConnection c = connect(Who.OTHER)) {
            SearchRequest read = new SearchRequest(ALICE, SearchScope.BASE, "(objectClass=*)", "cn");
            read.addControl(new AssertionRequestControl(deep));
            LDAPException e = assertThrows(LDAPException.class, () -> c.search(read));
            assertEquals(ResultCode.PROTOCOL_ERROR, e.getResultCode(), e.getMessage());
            assertTrue(e.getDiagnosticMessage().contains("listen.max-filter-depth"), e.getDiagnosticMessage());
            SearchRequest values = new SearchRequest(ALICE, SearchScope.BASE, "(objectClass=*)", "cn");
            MatchedValuesFilter[] items = new MatchedValuesFilter[10_001];
            Arrays.fill(items, MatchedValuesFilter.createEqualityFilter("cn", "alice"));
            values.addControl(new MatchedValuesRequestControl(items));
            LDAPException many = assertThrows(LDAPException.class, () -> c.search(values));
            assertEquals(ResultCode.ADMIN_LIMIT_EXCEEDED, many.getResultCode(), many.getMessage());
            assertTrue(many.getDiagnosticMessage().contains("listen.max-filter-elements"), many.getDiagnosticMessage());
        }
    }

    // ---- beyond the matrix ----------------------------------------------------------------------

    @Test
    void hiddenEntriesNeverCountTowardTheSizeLimit() throws Exception {
        try (LDAPConnection bob = connect(Who.OTHER)) {
            SearchRequest request = new SearchRequest(ACL, SearchScope.SUB, "(objectClass=*)", "1.1");
            SearchResult visible = bob.search(request);
            request.setSizeLimit(visible.getEntryCount());
            SearchResult again = bob.search(request);
            assertEquals(ResultCode.SUCCESS, again.getResultCode());
            assertEquals(visible.getEntryCount(), again.getEntryCount());
            assertTrue(
                    visible.getSearchEntries().stream().noneMatch(e -> e.getDN().endsWith(SECRET)));
        }
    }

    @Test
    void aMalformedAciIsInvalidAttributeSyntaxNamingTheProblem() throws Exception {
        try (LDAPConnection admin = connect(Who.ADMIN)) {
            LDAPException e = assertThrows(
                    LDAPException.class,
                    () -> admin.modify(
                            OPEN,
                            new Modification(
                                    ModificationType.ADD,
                                    "aci",
                                    "(version 3.0; acl \"x\"; allow (reed) userdn = \"ldap:///anyone\";)")));
            assertEquals(ResultCode.INVALID_ATTRIBUTE_SYNTAX, e.getResultCode());
            assertEquals(
                    "invalid aci: at 31: expected a right (read, search, compare, write, selfwrite, add, delete, proxy, all), found 'reed'",
                    e.getDiagnosticMessage());
        }
    }

    @Test
    void ldapToolsSeeTheSameRules() {
        LdapUtils anonymous = LdapUtils.anonymous(port);
        ProcessResult phone =
                anonymous.ldapsearch("-LLL", "-b", ALICE, "-s", "base", "(objectClass=*)", "mail", "telephoneNumber");
        assertEquals(0, phone.exitCode(), phone.describe());
        assertTrue(phone.out().contains("mail: alice@example.com"), phone.describe());
        assertFalse(phone.out().contains("telephoneNumber"), phone.describe());
        // A base the client may not read is answered as a missing one.
        ProcessResult secret = anonymous.ldapsearch("-LLL", "-b", SECRET, "(objectClass=*)", "1.1");
        assertEquals(32, secret.exitCode(), secret.describe());
        assertFalse(secret.out().contains("dn:"), secret.describe());
        LdapUtils alice = anonymous.as(ALICE, "alice-pw");
        ProcessResult own = alice.ldapmodifyLdif(
                "dn: " + ALICE + "\nchangetype: modify\nreplace: description\ndescription: set by ldapmodify\n");
        assertEquals(0, own.exitCode(), own.describe());
        ProcessResult name = alice.ldapmodifyLdif("dn: " + ALICE + "\nchangetype: modify\nreplace: sn\nsn: nope\n");
        assertEquals(50, name.exitCode(), name.describe());
        ProcessResult hidden = alice.ldapmodifyLdif(
                "dn: cn=hidden," + SECRET + "\nchangetype: modify\nreplace: description\ndescription: nope\n");
        assertEquals(32, hidden.exitCode(), hidden.describe());
    }

    // ---- the matrix machinery -------------------------------------------------------------------

    private interface Cell<T> {
        T run(Who who) throws Exception;
    }

    private static <T> Map<Who, T> only(Who who, T value) {
        return Map.of(who, value);
    }

    /** Runs the cell for every client: the listed outcome where given, {@code otherwise} elsewhere. */
    private static <T> void expect(Cell<T> cell, Map<Who, T> listed, T otherwise) throws Exception {
        Map<Who, T> expected = new EnumMap<>(Who.class);
        Map<Who, T> actual = new EnumMap<>(Who.class);
        for (Who who : Who.values()) {
            expected.put(who, listed.getOrDefault(who, otherwise));
            actual.put(who, cell.run(who));
            CELLS.incrementAndGet();
        }
        assertEquals(expected, actual);
    }

    private static String dnOf(Who who) {
        return switch (who) {
            case ANONYMOUS -> "";
            case SELF -> ALICE;
            case OTHER -> BOB;
            case MEMBER -> GINA;
            case ADMIN -> TestData.ADMIN_DN;
        };
    }

    private static LDAPConnection connect(Who who) throws LDAPException {
        LDAPConnection c = new LDAPConnection("127.0.0.1", port);
        switch (who) {
            case ANONYMOUS -> {}
            case ADMIN -> c.bind(TestData.ADMIN_DN, adminPassword);
            case SELF -> c.bind(ALICE, "alice-pw");
            case OTHER -> c.bind(BOB, "bob-pw");
            case MEMBER -> c.bind(GINA, "gina-pw");
        }
        return c;
    }

    private static boolean has(Who who, String dn, String attribute) throws LDAPException {
        try (LDAPConnection c = connect(who)) {
            SearchResultEntry e = c.getEntry(dn, attribute);
            return e != null && e.hasAttribute(attribute);
        }
    }

    private static String normalized(String dn) throws LDAPException {
        return new DN(dn).toNormalizedString();
    }

    private static String describe(LDAPResult result) throws LDAPException {
        String matched = result.getMatchedDN() == null ? "" : normalized(result.getMatchedDN());
        return result.getResultCode().getName().replace(" ", "") + " matched=" + matched;
    }

    private static String searchOutcome(Who who, String base, SearchScope scope) throws LDAPException {
        return outcomeWithMatch(who, c -> c.search(new SearchRequest(base, scope, "(objectClass=*)", "1.1")));
    }

    /** The result code (camel case, as RFC 4511 names it) and the normalized matched DN. */
    private static String outcomeWithMatch(Who who, Operation operation) throws LDAPException {
        try (LDAPConnection c = connect(who)) {
            return describe(operation.run(c)).replace("nosuchobject", "noSuchObject");
        } catch (LDAPException e) {
            return describe(e.toLDAPResult()).replace("nosuchobject", "noSuchObject");
        }
    }

    private static ResultCode assertedRead(Who who, String dn, String assertion) throws LDAPException {
        return outcome(who, c -> {
            SearchRequest read = new SearchRequest(dn, SearchScope.BASE, "(objectClass=*)", "1.1");
            read.addControl(new AssertionRequestControl(assertion));
            return c.search(read);
        });
    }

    private static String attribute(Who who, String dn, String attribute) throws LDAPException {
        try (LDAPConnection c = connect(who)) {
            SearchResultEntry e = c.getEntry(dn, attribute);
            return e == null ? null : e.getAttributeValue(attribute);
        }
    }

    /**
     * Waits until the persistent search feeding {@code told} is registered: writes a visible marker
     * until one is told, then forgets what was told.
     */
    private static void waitUntilWatching(LDAPConnection admin, BlockingQueue<SearchResultEntry> told)
            throws Exception {
        for (int i = 0; i < 300; i++) {
            admin.modify(DORA, new Modification(ModificationType.REPLACE, "description", "ready-" + i));
            SearchResultEntry first = told.poll(100, TimeUnit.MILLISECONDS);
            if (first != null) {
                // Registered: drain up to the last ready marker written, then start clean.
                String last = "ready-" + i;
                for (SearchResultEntry e = first;
                        e != null && !last.equals(e.getAttributeValue("description"));
                        e = told.poll(5, TimeUnit.SECONDS)) {}
                told.clear();
                return;
            }
        }
        throw new AssertionError("the persistent search never registered");
    }

    private static int count(Who who, String base, SearchScope scope, String filter) throws LDAPException {
        try (LDAPConnection c = connect(who)) {
            return c.search(new SearchRequest(base, scope, filter, "1.1")).getEntryCount();
        } catch (LDAPException e) {
            if (e.getResultCode().equals(ResultCode.NO_SUCH_OBJECT)) {
                return 0;
            }
            throw e;
        }
    }

    private static ResultCode compare(Who who, String dn, String attribute, String value) throws LDAPException {
        return outcome(who, c -> c.compare(new CompareRequest(dn, attribute, value)));
    }

    private static ResultCode modify(Who who, String dn, ModificationType type, String attribute, String value)
            throws LDAPException {
        return outcome(who, c -> c.modify(new ModifyRequest(dn, new Modification(type, attribute, value))));
    }

    private static ResultCode add(Who who, String dn) throws LDAPException {
        String cn = dn.substring(3, dn.indexOf(','));
        return outcome(
                who,
                c -> c.add(new AddRequest(
                        dn, new Attribute[] {new Attribute("objectClass", "organizationalRole"), new Attribute("cn", cn)
                        })));
    }

    private static ResultCode delete(Who who, String dn) throws LDAPException {
        return outcome(who, c -> c.delete(dn));
    }

    private static ResultCode rename(Who who, String dn, String newSuperior) throws LDAPException {
        String newRdn = dn.substring(0, dn.indexOf(',')).replace("cn=", "cn=renamed-");
        return outcome(who, c -> c.modifyDN(new ModifyDNRequest(dn, newRdn, true, newSuperior)));
    }

    private interface Operation {
        LDAPResult run(LDAPConnection c) throws LDAPException;
    }

    private static ResultCode outcome(Who who, Operation operation) throws LDAPException {
        try (LDAPConnection c = connect(who)) {
            return operation.run(c).getResultCode();
        } catch (LDAPException e) {
            if (e.getResultCode().equals(ResultCode.SERVER_DOWN)
                    || e.getResultCode().equals(ResultCode.CONNECT_ERROR)) {
                throw e;
            }
            return e.getResultCode();
        }
    }

    /** A salted SHA-1 hash as slappasswd writes it; the server refuses binds against cleartext values. */
    private static String ssha(String password) {
        try {
            byte[] salt = "8bytesal".getBytes(StandardCharsets.US_ASCII);
            MessageDigest sha = MessageDigest.getInstance("SHA-1");
            sha.update(password.getBytes(StandardCharsets.UTF_8));
            sha.update(salt);
            byte[] digest = sha.digest();
            byte[] stored = Arrays.copyOf(digest, digest.length + salt.length);
            System.arraycopy(salt, 0, stored, digest.length, salt.length);
            return "{SSHA}" + Base64.getEncoder().encodeToString(stored);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Entry ldif(String... lines) throws Exception {
        return new Entry(lines);
    }
}
