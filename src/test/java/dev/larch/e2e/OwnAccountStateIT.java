package dev.larch.e2e;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPSearchException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The built-in rules let each person read their own account state and nobody else's. Entries under
 * one parent share their worked-out rights when no rule looks at the entry; {@code self} looks only at
 * whether the entry is the requester's own, so a search over siblings must still show each requester
 * their own state, wherever their entry falls in the answer (first, between others, last), and
 * nobody's to an anonymous client. Only the global rules reach {@code ou=own-state}; below it a
 * vault is hidden by a rule on it that names no target.
 */
@ExtendWith(SharedServer.class)
class OwnAccountStateIT {
    static final String CONTAINER = "ou=own-state," + TestData.SUFFIX;
    static final String POLICY = "cn=own-state-policy," + TestData.SUFFIX;
    static final List<String> PEOPLE = List.of("ada", "ben", "cy", "di", "ed");
    /** Hidden from everyone but the administrator by a rule that never looks at the entry. */
    static final String VAULT = "ou=vault," + CONTAINER;

    static int port;
    static String adminPassword;

    @BeforeAll
    static void loadSiblingsWithAccountState(SharedServer.Server server) throws Exception {
        port = server.port();
        adminPassword = server.adminPassword();
        try (LDAPConnection admin = connect(TestData.ADMIN_DN, adminPassword)) {
            admin.add(new Entry(
                    "dn: " + POLICY,
                    "objectClass: device",
                    "objectClass: pwdPolicy",
                    "cn: own-state-policy",
                    "pwdAttribute: userPassword"));
            admin.add(new Entry("dn: " + CONTAINER, "objectClass: organizationalUnit", "ou: own-state"));
            for (String uid : PEOPLE) {
                admin.add(new Entry(
                        "dn: " + dn(uid),
                        "objectClass: inetOrgPerson",
                        "uid: own-" + uid,
                        "cn: " + uid,
                        "sn: " + uid,
                        "userPassword: " + uid + "-pw",
                        "pwdPolicySubentry: " + POLICY));
            }
            admin.add(new Entry(
                    "dn: " + VAULT,
                    "objectClass: organizationalUnit",
                    "ou: vault",
                    "aci: (targetattr = \"*\")(version 3.0; acl \"vault\"; deny (all) userdn = \"ldap:///anyone\";)"));
            admin.add(new Entry("dn: cn=inside," + VAULT, "objectClass: organizationalRole", "cn: inside"));
        }
    }

    /**
     * A search base hidden by a rule that does not look at the entry is judged without reading it:
     * the answer must be the one for a missing entry, from the base down.
     */
    @Test
    void aHiddenBaseAnswersAsAMissingOne() throws Exception {
        String missing = "ou=missing," + CONTAINER;
        try (LDAPConnection anonymous = new LDAPConnection("127.0.0.1", port);
                LDAPConnection person = connect(dn("ada"), "ada-pw")) {
            for (LDAPConnection c : List.of(anonymous, person)) {
                for (String base : List.of(VAULT, "cn=inside," + VAULT, missing)) {
                    LDAPSearchException e = assertThrows(
                            LDAPSearchException.class, () -> c.search(base, SearchScope.SUB, "(objectClass=*)"));
                    assertEquals(ResultCode.NO_SUCH_OBJECT, e.getResultCode(), base);
                    // The nearest ancestor the client may read: never the hidden vault.
                    assertEquals(
                            new DN(CONTAINER).toNormalizedString(),
                            new DN(e.getMatchedDN()).toNormalizedString(),
                            base);
                }
            }
        }
        try (LDAPConnection admin = connect(TestData.ADMIN_DN, adminPassword)) {
            assertEquals(
                    2, admin.search(VAULT, SearchScope.SUB, "(objectClass=*)").getEntryCount());
        }
    }

    @Test
    void eachPersonSeesOnlyTheirOwnStateAmongSiblings() throws Exception {
        for (String uid : PEOPLE) {
            try (LDAPConnection c = connect(dn(uid), uid + "-pw")) {
                assertEquals(Set.of(dn(uid)), holders(c, "(objectClass=inetOrgPerson)"), uid + " reading");
                assertEquals(Set.of(dn(uid)), holders(c, "(pwdPolicySubentry=*)"), uid + " filtering");
                // Twice on one connection: what a search remembered must not leak into the next.
                assertEquals(Set.of(dn(uid)), holders(c, "(objectClass=inetOrgPerson)"), uid + " again");
            }
        }
    }

    @Test
    void anonymousSeesNobodysStateAndTheAdministratorEverybodys() throws Exception {
        try (LDAPConnection c = new LDAPConnection("127.0.0.1", port)) {
            assertEquals(Set.of(), holders(c, "(objectClass=inetOrgPerson)"));
            assertEquals(Set.of(), holders(c, "(pwdPolicySubentry=*)"));
        }
        Set<String> everybody = new TreeSet<>();
        PEOPLE.forEach(uid -> everybody.add(dn(uid)));
        try (LDAPConnection c = connect(TestData.ADMIN_DN, adminPassword)) {
            assertEquals(everybody, holders(c, "(pwdPolicySubentry=*)"));
        }
    }

    /** The normalized DNs a one-level search returned with pwdPolicySubentry; the read filter must return everyone. */
    private static Set<String> holders(LDAPConnection c, String filter) throws LDAPException {
        SearchResult result = c.search(CONTAINER, SearchScope.ONE, filter, "pwdPolicySubentry", "cn");
        if (filter.contains("objectClass")) {
            assertEquals(PEOPLE.size(), result.getEntryCount(), "every person is visible to " + filter);
        }
        Set<String> holding = new TreeSet<>();
        for (SearchResultEntry e : result.getSearchEntries()) {
            if (e.hasAttribute("pwdPolicySubentry")) {
                holding.add(e.getParsedDN().toNormalizedString());
            }
        }
        return holding;
    }

    private static String dn(String uid) {
        try {
            return new DN("uid=own-" + uid + "," + CONTAINER).toNormalizedString();
        } catch (LDAPException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static LDAPConnection connect(String dn, String password) throws LDAPException {
        LDAPConnection c = new LDAPConnection("127.0.0.1", port);
        c.bind(dn, password);
        return c;
    }
}
