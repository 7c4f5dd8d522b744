package dev.larch.server.testing;

import java.util.Locale;
import java.util.function.IntFunction;

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

    /**
     * An organizational unit {@code unitDn} and {@code entries} inetOrgPersons below it ({@code uid}
     * u0000, u0001..., {@code cn} "User i", {@code sn} "Si"), each with the description {@code
     * description.apply(i)}: a subtree large enough for searches that stream, pause or run long.
     */
    public static String bulkUnit(String unitDn, int entries, IntFunction<String> description) {
        String rdn = unitDn.substring(unitDn.indexOf('=') + 1, unitDn.indexOf(','));
        String uidFormat = "u%0" + Math.max(4, String.valueOf(entries - 1).length()) + "d";
        StringBuilder ldif = new StringBuilder("dn: ")
                .append(unitDn)
                .append("\nobjectClass: organizationalUnit\nou: ")
                .append(rdn)
                .append("\n\n");
        for (int i = 0; i < entries; i++) {
            String uid = String.format(Locale.ROOT, uidFormat, i);
            ldif.append("dn: uid=")
                    .append(uid)
                    .append(',')
                    .append(unitDn)
                    .append("\nobjectClass: inetOrgPerson\nuid: ")
                    .append(uid)
                    .append("\ncn: User ")
                    .append(i)
                    .append("\nsn: S")
                    .append(i)
                    .append("\ndescription: ")
                    .append(description.apply(i))
                    .append("\n\n");
        }
        return ldif.toString();
    }

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

    /** An inetOrgPerson and posixAccount under ou=People, with a fixed creation time. */
    public static String posix(String uid, int number, String created) {
        return "dn: uid=" + uid + ",ou=People,dc=example,dc=com\n"
                + "objectClass: inetOrgPerson\nobjectClass: posixAccount\n"
                + "uid: " + uid + "\ncn: " + uid + "\nsn: " + uid + "\n"
                + "uidNumber: " + number + "\ngidNumber: 100\nhomeDirectory: /home/" + uid + "\n"
                + "createTimestamp: " + created + "\n\n";
    }

    /**
     * The engine tests' tree: three people (jdoe, asmith, bsmith), three posix accounts created in
     * 2019, 2020 and 2025 (eve, carl, dave) and a group, cn=staff, with jdoe as member.
     */
    public static final String PEOPLE_AND_GROUP = BASE
            + person("jdoe", "John Doe", "Doe", "+1 555 0100")
            + person("asmith", "Alice Smith", "Smith", "+1 555-0101")
            + person("bsmith", "Bob Smithers", "Smithers", null)
            + posix("carl", 1000, "20200101000000Z")
            + posix("dave", 20000, "20250601120000Z")
            + posix("eve", 300, "20190101000000Z")
            + """
            dn: cn=staff,ou=Groups,dc=example,dc=com
            objectClass: groupOfNames
            cn: staff
            member: uid=jdoe,ou=People,dc=example,dc=com

            """;
}
