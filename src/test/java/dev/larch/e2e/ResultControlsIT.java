package dev.larch.e2e;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Hashtable;
import java.util.List;
import java.util.Locale;
import javax.naming.Context;
import javax.naming.NamingEnumeration;
import javax.naming.NamingException;
import javax.naming.directory.SearchControls;
import javax.naming.directory.SearchResult;
import javax.naming.ldap.Control;
import javax.naming.ldap.InitialLdapContext;
import javax.naming.ldap.LdapContext;
import javax.naming.ldap.PagedResultsControl;
import javax.naming.ldap.PagedResultsResponseControl;
import javax.naming.ldap.SortControl;
import javax.naming.ldap.SortResponseControl;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The controls that shape a result set (paged results, server-side sort), sent by real clients
 * against the shared server: OpenLDAP's {@code ldapsearch -E} and the JDK's JNDI provider. The class
 * owns {@code ou=rc}.
 */
@ExtendWith(SharedServer.class)
class ResultControlsIT {
    static final String RC = "ou=rc," + TestData.SUFFIX;
    static final int PEOPLE = 120;

    static LdapUtils admin;
    static LdapContext jndi;

    @BeforeAll
    static void loadPeople(SharedServer.Server server) throws NamingException {
        admin = LdapUtils.anonymous(server.port()).asAdmin(server.adminPassword());
        StringBuilder ldif = new StringBuilder("dn: " + RC + "\nobjectClass: organizationalUnit\nou: rc\n\n");
        for (int i = 0; i < PEOPLE; i++) {
            String uid = String.format(Locale.ROOT, "rc%03d", i);
            ldif.append("dn: uid=")
                    .append(uid)
                    .append(',')
                    .append(RC)
                    .append('\n')
                    .append("objectClass: inetOrgPerson\nuid: ")
                    .append(uid)
                    .append("\ncn: Person ")
                    .append(i)
                    .append("\nsn: ")
                    .append(String.format(Locale.ROOT, "S%03d", (i * 37) % PEOPLE))
                    .append("\n\n");
        }
        ProcessResult added = admin.ldapaddLdif(ldif.toString());
        assertEquals(0, added.exitCode(), added.describe());

        @SuppressWarnings("JdkObsolete") // JNDI takes a Hashtable
        Hashtable<String, Object> env = new Hashtable<>();
        env.put(Context.INITIAL_CONTEXT_FACTORY, "com.sun.jndi.ldap.LdapCtxFactory");
        env.put(Context.PROVIDER_URL, server.process().url());
        env.put(Context.SECURITY_AUTHENTICATION, "simple");
        env.put(Context.SECURITY_PRINCIPAL, TestData.ADMIN_DN);
        env.put(Context.SECURITY_CREDENTIALS, server.adminPassword());
        env.put("com.sun.jndi.ldap.read.timeout", "30000");
        jndi = new InitialLdapContext(env, null);
    }

    @AfterAll
    static void close() throws NamingException {
        if (jndi != null) {
            jndi.close();
        }
    }

    private static List<String> dns(ProcessResult r) {
        return r.out().lines().filter(l -> l.startsWith("dn: ")).toList();
    }

    @Test
    void ldapsearchPagesThroughEveryEntryOnce() {
        ProcessResult r = admin.ldapsearch("-E", "pr=7/noprompt", "-b", RC, "-s", "one", "(objectClass=*)", "1.1");
        assertEquals(0, r.exitCode(), r.describe());
        List<String> dns = dns(r);
        assertEquals(PEOPLE, dns.size(), r.describe());
        assertEquals(PEOPLE, new HashSet<>(dns).size(), "an entry came twice");
        long pages = r.out().lines().filter(l -> l.startsWith("pagedresults:")).count();
        assertEquals((PEOPLE + 6) / 7, pages, r.out());
    }

    @Test
    void ldapsearchPagesThroughTheWholeTreeOnce() {
        // Based at the suffix with an unindexed filter, the walk reads the entries in ID order and
        // each page resumes after the last ID sent.
        ProcessResult paged = admin.ldapsearch("-E", "pr=25/noprompt", "-b", TestData.SUFFIX, "(objectClass=*)", "1.1");
        assertEquals(0, paged.exitCode(), paged.describe());
        ProcessResult whole = admin.ldapsearch("-b", TestData.SUFFIX, "(objectClass=*)", "1.1");
        assertEquals(0, whole.exitCode(), whole.describe());
        List<String> dns = dns(paged);
        assertEquals(dns.size(), new HashSet<>(dns).size(), "an entry came twice");
        assertTrue(dns.size() > PEOPLE, paged.describe());
        assertEquals(new HashSet<>(dns(whole)), new HashSet<>(dns));
    }

    private static List<String> values(ProcessResult r, String attribute) {
        return r.out()
                .lines()
                .filter(l -> l.startsWith(attribute + ": "))
                .map(l -> l.substring(attribute.length() + 2))
                .toList();
    }

    @Test
    void ldapsearchSortsForwardAndBackward() {
        ProcessResult up = admin.ldapsearch("-LLL", "-E", "!sss=sn/uid", "-b", RC, "-s", "one", "(uid=*)", "sn");
        assertEquals(0, up.exitCode(), up.describe());
        List<String> sns = values(up, "sn");
        assertEquals(PEOPLE, sns.size(), up.describe());
        assertEquals(sns.stream().sorted().toList(), sns, "sorted by sn");

        ProcessResult down = admin.ldapsearch("-LLL", "-E", "!sss=-sn", "-b", RC, "-s", "one", "(uid=*)", "sn");
        assertEquals(0, down.exitCode(), down.describe());
        assertEquals(sns.reversed(), values(down, "sn"));

        ProcessResult unordered =
                admin.ldapsearch("-LLL", "-E", "!sss=objectClass", "-b", RC, "-s", "one", "(uid=*)", "sn");
        assertEquals(12, unordered.exitCode(), "unavailableCriticalExtension: " + unordered.describe());
    }

    @Test
    void ldapsearchVirtualListViewByOffsetAndByValue() {
        List<String> sorted =
                values(admin.ldapsearch("-LLL", "-E", "!sss=sn", "-b", RC, "-s", "one", "(uid=*)", "sn"), "sn");
        // ldapsearch asks for the next window after each; "q" is no window, which ends it (exit 1).
        ProcessResult byOffset = admin.ldapsearchAnswering(
                "q\n", "-LLL", "-E", "!sss=sn", "-E", "!vlv=2/3/10/0", "-b", RC, "-s", "one", "(uid=*)", "sn");
        assertTrue(byOffset.out().contains("vlvResultpos=10 count=" + PEOPLE), byOffset.describe());
        assertEquals(sorted.subList(7, 13), values(byOffset, "sn"));

        ProcessResult byValue = admin.ldapsearchAnswering(
                "q\n", "-LLL", "-E", "!sss=sn", "-E", "!vlv=1/1:S050", "-b", RC, "-s", "one", "(uid=*)", "sn");
        assertTrue(byValue.out().contains("(0) Success"), byValue.describe());
        int at = sorted.indexOf("S050");
        assertEquals(sorted.subList(at - 1, at + 2), values(byValue, "sn"));
    }

    @Test
    void jndiSortControlSortsAndPagesTogether() throws Exception {
        SearchControls controls = new SearchControls();
        controls.setSearchScope(SearchControls.ONELEVEL_SCOPE);
        controls.setReturningAttributes(new String[] {"sn"});
        List<String> sns = new ArrayList<>();
        byte[] cookie = null;
        do {
            jndi.setRequestControls(new Control[] {
                new SortControl("sn", Control.CRITICAL), new PagedResultsControl(30, cookie, Control.CRITICAL)
            });
            NamingEnumeration<SearchResult> results = jndi.search(RC, "(uid=*)", controls);
            while (results.hasMore()) {
                sns.add((String) results.next().getAttributes().get("sn").get());
            }
            results.close();
            cookie = null;
            for (Control c : jndi.getResponseControls()) {
                if (c instanceof PagedResultsResponseControl paged) {
                    cookie = paged.getCookie();
                } else if (c instanceof SortResponseControl sorted) {
                    assertTrue(sorted.isSorted(), "sortResult " + sorted.getResultCode());
                }
            }
        } while (cookie != null && cookie.length > 0);
        assertEquals(PEOPLE, sns.size());
        assertEquals(sns.stream().sorted().toList(), sns);
        jndi.setRequestControls(null);
    }

    @Test
    void jndiPagedResultsControlPagesThroughEveryEntryOnce() throws Exception {
        SearchControls controls = new SearchControls();
        controls.setSearchScope(SearchControls.SUBTREE_SCOPE);
        controls.setReturningAttributes(new String[] {"uid"});
        List<String> names = new ArrayList<>();
        byte[] cookie = null;
        int pages = 0;
        do {
            jndi.setRequestControls(new Control[] {new PagedResultsControl(25, cookie, Control.CRITICAL)});
            NamingEnumeration<SearchResult> results = jndi.search(RC, "(uid=rc*)", controls);
            while (results.hasMore()) {
                names.add(results.next().getNameInNamespace());
            }
            results.close();
            pages++;
            cookie = null;
            Control[] response = jndi.getResponseControls();
            assertNotNull(response, "each page carries the paged results response control");
            for (Control c : response) {
                if (c instanceof PagedResultsResponseControl paged) {
                    cookie = paged.getCookie();
                }
            }
        } while (cookie != null && cookie.length > 0);
        assertEquals(PEOPLE, names.size());
        assertEquals(PEOPLE, new HashSet<>(names).size());
        assertTrue(pages >= PEOPLE / 25, "pages: " + pages);
        jndi.setRequestControls(null);
    }

    @Test
    void ldapsearchMatchedValuesReturnsOnlyTheMatchingValues() {
        String dn = "uid=rc007," + RC;
        ProcessResult added =
                admin.ldapmodifyLdif("dn: " + dn + "\nchangetype: modify\nadd: cn\ncn: Seven\ncn: Lucky\n");
        assertEquals(0, added.exitCode(), added.describe());
        ProcessResult r = admin.ldapsearch("-E", "!mv=(cn=S*)", "-b", dn, "-s", "base", "(objectClass=*)", "cn", "uid");
        assertEquals(0, r.exitCode(), r.describe());
        assertEquals(List.of("Seven"), values(r, "cn"), r.describe());
        assertEquals(List.of(), values(r, "uid"), "no item names uid, so none of its values is sent: " + r.describe());
    }
}
