package dev.larch.e2e;

/** LDIF the tests share: the naming context every server in these tests holds. */
final class TestData {
    static final String SUFFIX = "dc=example,dc=com";
    static final String ADMIN_DN = "cn=admin," + SUFFIX;

    /** The suffix entry, as {@code ./larch import} into a new data directory needs it first. */
    static final String SUFFIX_LDIF = """
            dn: dc=example,dc=com
            objectClass: dcObject
            objectClass: organization
            dc: example
            o: Example Corp
            """;

    /**
     * ou=people, all a new server needs before anything else: it creates the suffix entry itself
     * ({@code storage.create-suffix}, on by default), so adding {@link #SUFFIX_LDIF} over LDAP would
     * fail with entryAlreadyExists.
     */
    static final String PEOPLE_LDIF = """
            dn: ou=people,dc=example,dc=com
            objectClass: organizationalUnit
            ou: people
            """;

    /** The suffix entry and ou=people: the start of an LDIF to import into a new data directory. */
    static final String BASE_LDIF = SUFFIX_LDIF + "\n" + PEOPLE_LDIF;

    private TestData() {}

    /** An inetOrgPerson {@code uid=<uid>,<parent>} with cn, sn and mail derived from the uid. */
    static String person(String uid, String parent) {
        return "dn: uid=" + uid + "," + parent + "\n"
                + "objectClass: inetOrgPerson\n"
                + "uid: " + uid + "\n"
                + "cn: " + uid + " Person\n"
                + "sn: Person\n"
                + "mail: " + uid + "@example.com\n";
    }
}
