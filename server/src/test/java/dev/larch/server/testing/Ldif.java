package dev.larch.server.testing;

/** Small LDIF fixtures shared by engine tests. */
public final class Ldif {
    private Ldif() {}

    public static final String BASE = """
            dn: dc=example,dc=com
            objectClass: top
            objectClass: dcObject
            objectClass: organization
            dc: example
            o: Example

            dn: ou=People,dc=example,dc=com
            objectClass: organizationalUnit
            ou: People

            dn: ou=Groups,dc=example,dc=com
            objectClass: organizationalUnit
            ou: Groups

            """;

    /** An inetOrgPerson under ou=People. */
    public static String person(String uid, String cn, String sn, String phone) {
        return "dn: uid=" + uid + ",ou=People,dc=example,dc=com\n"
                + "objectClass: inetOrgPerson\n"
                + "uid: " + uid + "\n"
                + "cn: " + cn + "\n"
                + "sn: " + sn + "\n"
                + "mail: " + uid + "@example.com\n"
                + (phone == null ? "" : "telephoneNumber: " + phone + "\n")
                + "\n";
    }
}
