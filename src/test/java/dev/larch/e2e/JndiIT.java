package dev.larch.e2e;

import java.util.ArrayList;
import java.util.Hashtable;
import java.util.List;
import javax.naming.AuthenticationException;
import javax.naming.Context;
import javax.naming.ContextNotEmptyException;
import javax.naming.NameAlreadyBoundException;
import javax.naming.NameNotFoundException;
import javax.naming.NamingEnumeration;
import javax.naming.NamingException;
import javax.naming.NoPermissionException;
import javax.naming.directory.Attribute;
import javax.naming.directory.Attributes;
import javax.naming.directory.BasicAttribute;
import javax.naming.directory.BasicAttributes;
import javax.naming.directory.DirContext;
import javax.naming.directory.InitialDirContext;
import javax.naming.directory.InvalidAttributeIdentifierException;
import javax.naming.directory.InvalidAttributeValueException;
import javax.naming.directory.ModificationItem;
import javax.naming.directory.SchemaViolationException;
import javax.naming.directory.SearchControls;
import javax.naming.directory.SearchResult;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The JDK's own LDAP provider ({@code com.sun.jndi.ldap.LdapCtxFactory}) as an application would
 * use it, against the shared server: a second, independent client codec. The class owns
 * {@code ou=jndi}. Result codes must surface as the matching {@link NamingException} subclasses.
 */
@ExtendWith(SharedServer.class)
class JndiIT {
    static final String JNDI = "ou=jndi," + TestData.SUFFIX;

    static String url;
    static String adminPassword;
    static DirContext admin;

    @BeforeAll
    static void bindAsAdminAndCreateTheSubtree(SharedServer.Server server) throws NamingException {
        url = server.process().url();
        adminPassword = server.adminPassword();
        admin = connect(TestData.ADMIN_DN, adminPassword);
        Attributes ou = new BasicAttributes(true);
        ou.put(objectClasses("organizationalUnit"));
        ou.put("ou", "jndi");
        admin.createSubcontext(JNDI, ou).close();
        admin.createSubcontext("uid=fixed," + JNDI, person("fixed")).close();
    }

    @AfterAll
    static void unbind() throws NamingException {
        if (admin != null) {
            admin.close();
        }
    }

    /** A context bound as {@code dn}, or anonymous when {@code dn} is null. */
    static DirContext connect(String dn, String password) throws NamingException {
        @SuppressWarnings("JdkObsolete") // JNDI takes a Hashtable
        Hashtable<String, Object> env = new Hashtable<>();
        env.put(Context.INITIAL_CONTEXT_FACTORY, "com.sun.jndi.ldap.LdapCtxFactory");
        env.put(Context.PROVIDER_URL, url);
        env.put("com.sun.jndi.ldap.connect.timeout", "10000");
        env.put("com.sun.jndi.ldap.read.timeout", "30000");
        if (dn == null) {
            env.put(Context.SECURITY_AUTHENTICATION, "none");
        } else {
            env.put(Context.SECURITY_AUTHENTICATION, "simple");
            env.put(Context.SECURITY_PRINCIPAL, dn);
            env.put(Context.SECURITY_CREDENTIALS, password);
        }
        return new InitialDirContext(env);
    }

    static Attribute objectClasses(String... classes) {
        Attribute oc = new BasicAttribute("objectClass");
        for (String c : classes) {
            oc.add(c);
        }
        return oc;
    }

    static Attributes person(String uid) {
        Attributes a = new BasicAttributes(true);
        a.put(objectClasses("inetOrgPerson"));
        a.put("uid", uid);
        a.put("cn", uid + " Person");
        a.put("sn", "Person");
        a.put("mail", uid + "@example.com");
        return a;
    }

    static List<String> values(Attribute attribute) throws NamingException {
        List<String> values = new ArrayList<>();
        for (NamingEnumeration<?> e = attribute.getAll(); e.hasMore(); ) {
            values.add((String) e.next());
        }
        return values;
    }

    @Test
    void anEntryCanBeCreatedModifiedSearchedRenamedAndDestroyed() throws NamingException {
        String dn = "uid=life," + JNDI;
        admin.createSubcontext(dn, person("life")).close();

        admin.modifyAttributes(dn, new ModificationItem[] {
            new ModificationItem(DirContext.REPLACE_ATTRIBUTE, new BasicAttribute("mail", "life@example.org")),
            new ModificationItem(DirContext.ADD_ATTRIBUTE, new BasicAttribute("description", "created by JNDI")),
            new ModificationItem(DirContext.REMOVE_ATTRIBUTE, new BasicAttribute("cn", "life Person")),
            new ModificationItem(DirContext.ADD_ATTRIBUTE, new BasicAttribute("cn", "Life Changed")),
        });

        Attributes read = admin.getAttributes(dn, new String[] {"mail", "description", "cn"});
        assertEquals(List.of("life@example.org"), values(read.get("mail")));
        assertEquals(List.of("created by JNDI"), values(read.get("description")));
        assertEquals(List.of("Life Changed"), values(read.get("cn")));

        admin.rename(dn, "uid=renamed," + JNDI);
        assertThrows(NameNotFoundException.class, () -> admin.getAttributes(dn));
        Attributes renamed = admin.getAttributes("uid=renamed," + JNDI, new String[] {"uid"});
        assertEquals(List.of("renamed"), values(renamed.get("uid")));

        admin.destroySubcontext("uid=renamed," + JNDI);
        assertThrows(NameNotFoundException.class, () -> admin.getAttributes("uid=renamed," + JNDI));
    }

    @Test
    void aSubtreeSearchReturnsTheRequestedAttributesOfTheMatchingEntries() throws NamingException {
        SearchControls controls = new SearchControls();
        controls.setSearchScope(SearchControls.SUBTREE_SCOPE);
        controls.setReturningAttributes(new String[] {"cn", "mail"});
        DirContext anonymous = connect(null, null);
        List<SearchResult> results = new ArrayList<>();
        try {
            NamingEnumeration<SearchResult> e = anonymous.search(
                    TestData.SUFFIX, "(&(objectClass=inetOrgPerson)(uid={0}))", new Object[] {"fixed"}, controls);
            while (e.hasMore()) {
                results.add(e.next());
            }
        } finally {
            anonymous.close();
        }
        assertEquals(1, results.size());
        SearchResult r = results.get(0);
        assertEquals("uid=fixed," + JNDI, r.getNameInNamespace());
        Attributes a = r.getAttributes();
        assertEquals(2, a.size(), a.toString());
        assertEquals(List.of("fixed Person"), values(a.get("cn")));
        assertEquals(List.of("fixed@example.com"), values(a.get("mail")));
    }

    @Test
    void aBaseSearchForOneValueWithNoAttributesIsAnsweredByCompare() throws NamingException {
        // JNDI sends an LDAP compare for exactly this shape of search.
        SearchControls controls = new SearchControls();
        controls.setSearchScope(SearchControls.OBJECT_SCOPE);
        controls.setReturningAttributes(new String[0]);
        NamingEnumeration<SearchResult> yes = admin.search("uid=fixed," + JNDI, "(sn=person)", controls);
        assertTrue(yes.hasMore());
        yes.close();
        NamingEnumeration<SearchResult> no = admin.search("uid=fixed," + JNDI, "(sn=Other)", controls);
        assertFalse(no.hasMore());
    }

    @Test
    void creatingAnExistingEntryThrowsNameAlreadyBound() {
        assertThrows(
                NameAlreadyBoundException.class, () -> admin.createSubcontext("uid=fixed," + JNDI, person("fixed")));
    }

    @Test
    void readingAMissingEntryThrowsNameNotFound() {
        NameNotFoundException e =
                assertThrows(NameNotFoundException.class, () -> admin.getAttributes("uid=missing," + JNDI));
        assertTrue(e.getMessage().startsWith("[LDAP: error code 32 - "), e.getMessage());
        assertEquals("uid=missing," + JNDI, e.getRemainingName().toString());
    }

    @Test
    void anAnonymousWriteThrowsNoPermission() throws NamingException {
        DirContext anonymous = connect(null, null);
        try {
            assertThrows(
                    NoPermissionException.class, () -> anonymous.createSubcontext("uid=anon," + JNDI, person("anon")));
        } finally {
            anonymous.close();
        }
    }

    @Test
    void aWrongPasswordThrowsAuthenticationException() {
        assertThrows(AuthenticationException.class, () -> connect(TestData.ADMIN_DN, adminPassword + "-wrong"));
    }

    @Test
    void destroyingANonLeafThrowsContextNotEmpty() {
        assertThrows(ContextNotEmptyException.class, () -> admin.destroySubcontext(JNDI));
    }

    @Test
    void anEntryMissingARequiredAttributeThrowsSchemaViolation() {
        Attributes noSurname = person("nosn");
        noSurname.remove("sn");
        assertThrows(SchemaViolationException.class, () -> admin.createSubcontext("uid=nosn," + JNDI, noSurname));
    }

    @Test
    void anUnknownAttributeThrowsInvalidAttributeIdentifier() {
        Attributes unknown = person("unknown");
        unknown.put("fooBar", "x");
        assertThrows(
                InvalidAttributeIdentifierException.class,
                () -> admin.createSubcontext("uid=unknown," + JNDI, unknown));
    }

    @Test
    void aSecondValueForASingleValuedAttributeThrowsInvalidAttributeValue() {
        Attributes twice = person("twice");
        BasicAttribute displayName = new BasicAttribute("displayName", "one");
        displayName.add("two");
        twice.put(displayName);
        assertThrows(InvalidAttributeValueException.class, () -> admin.createSubcontext("uid=twice," + JNDI, twice));
    }
}
