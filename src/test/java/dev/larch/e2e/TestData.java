package dev.larch.e2e;

/** LDIF the tests share: the naming context every server in these tests holds. */
final class TestData {
    static final String SUFFIX = "dc=example,dc=com";
    static final String ADMIN_DN = "cn=admin," + SUFFIX;

    /** The suffix entry and ou=people, as an empty server needs them before anything else. */
    static final String BASE_LDIF = """
            dn: dc=example,dc=com
            objectClass: dcObject
            objectClass: organization
            dc: example
            o: Example Corp

            dn: ou=people,dc=example,dc=com
            objectClass: organizationalUnit
            ou: people
            """;

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
