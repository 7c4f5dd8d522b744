package dev.larch.jmh.data;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.Locale;

import org.apache.directory.api.ldap.model.entry.DefaultEntry;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.exception.LdapException;

/**
 * Deterministic inetOrgPerson entries for the benchmarks: person {@code i} always has the same
 * values, so two runs (and two machines) measure the same data.
 *
 * <p>Entries have the dbgen shape that {@code ./larch gen} writes (client-bench's
 * {@code PersonWriter}): the same 23 attribute types besides objectClass, with values of the same
 * kinds and sizes (an SSHA password, a {@code $}-separated postal address, five phone numbers,
 * manager and secretary DNs). The jmh module does not depend on client-bench, so the shape is
 * mirrored here; keep the two in step. Two things differ on purpose: the naming attribute is
 * {@code uid=user<i, 6 digits>} (the benchmarks derive keys that exist, and keys that exist nowhere,
 * from the number) and people live in units of {@link #PER_UNIT} under {@code ou=people}: person
 * {@code i} is {@code uid=user<i>,ou=unit<i / 1000, 3 digits>,ou=people,<suffix>}. Units keep the
 * one-level walk the same size whatever the total.
 *
 * <p>Stateless and thread-safe.
 */
public final class People {
    /** Children of one unit, the size of a one-level walk. */
    public static final int PER_UNIT = 1000;

    public static final String SUFFIX = "dc=example,dc=com";
    public static final String PEOPLE = "ou=people," + SUFFIX;

    private static final String[] GIVEN = {
        "James", "Mary", "Robert", "Patricia", "John", "Jennifer", "Michael", "Linda", "David", "Elizabeth",
        "William", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Charles", "Karen",
        "Christopher", "Lisa", "Daniel", "Nancy", "Matthew", "Betty", "Anthony", "Sandra", "Mark", "Margaret",
        "Donald", "Ashley", "Steven", "Kimberly", "Andrew", "Emily", "Paul", "Donna", "Joshua", "Michelle",
        "Kenneth", "Carol", "Kevin", "Amanda", "Brian", "Melissa", "George", "Deborah", "Timothy", "Stephanie",
    };
    private static final String[] SURNAMES = {
        "Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
        "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin",
        "Lee", "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson",
        "Walker", "Young", "Allen", "King", "Wright", "Scott", "Torres", "Nguyen", "Hill", "Flores",
        "Green", "Adams", "Nelson", "Baker", "Hall", "Rivera", "Campbell", "Mitchell", "Carter", "Roberts",
        "Gomez", "Phillips", "Evans", "Turner", "Diaz", "Parker", "Cruz", "Edwards", "Collins", "Reyes",
        "Stewart", "Morris", "Morales", "Murphy", "Cook", "Rogers", "Gutierrez", "Ortiz", "Morgan", "Cooper",
    };
    /** The attribute types of a person besides objectClass, as dbgen writes them. */
    public static final int ATTRIBUTE_TYPES = 23;

    private static final String[] TITLES = {
        "Engineer", "Senior Engineer", "Staff Engineer", "Manager", "Director", "Accountant",
        "Analyst", "Test Engineer", "Technical Writer", "Recruiter", "Payroll Specialist", "Architect",
        "Administrative Assistant", "Vice President", "Consultant", "Product Manager"
    };
    private static final String[] EMPLOYEE_TYPES = {"Employee", "Contractor", "Intern", "Temp", "Part-time"};
    /** City, state, ZIP code, telephone area code. */
    private static final String[][] CITIES = {
        {"Cupertino", "CA", "95014", "408"}, {"Sunnyvale", "CA", "94086", "408"},
        {"Palo Alto", "CA", "94301", "650"}, {"Redmond", "WA", "98052", "425"},
        {"Austin", "TX", "78701", "512"}, {"Boston", "MA", "02110", "617"},
        {"Armonk", "NY", "10504", "914"}, {"Raleigh", "NC", "27601", "919"},
        {"Boulder", "CO", "80302", "303"}, {"Portland", "OR", "97205", "503"}
    };

    private static final String[] STREETS = {
        "Oak", "Maple", "Cedar", "Pine", "Elm", "Walnut", "Hill", "Lake", "Park", "Main", "Church", "Mill"
    };
    private static final String[] STREET_KINDS = {"Street", "Avenue", "Road", "Lane", "Drive", "Way"};

    private People() {}

    public static String uid(int i) {
        return String.format(Locale.ROOT, "user%06d", i);
    }

    public static String unitDn(int unit) {
        return "ou=" + unitName(unit) + "," + PEOPLE;
    }

    public static String dn(int i) {
        return "uid=" + uid(i) + "," + unitDn(i / PER_UNIT);
    }

    /**
     * A uid that no person has, for the non-matching path: it sorts right after person {@code i}'s,
     * so misses spread over the whole index as hits do.
     */
    public static String absentUid(int i) {
        return uid(i) + "x";
    }

    /** Person {@code i} as a client would send it (not schema-aware): the 23 dbgen attribute types. */
    public static Entry person(int i) {
        String given = GIVEN[i % GIVEN.length];
        // Surnames change every GIVEN.length people, so given and surname combine into many names.
        String sn = SURNAMES[(i / GIVEN.length) % SURNAMES.length];
        String uid = uid(i);
        String unit = unitName(i / PER_UNIT);
        // The person's other values come from a stream seeded by its number: the same every run.
        SplitMix64 rng = new SplitMix64(0x1A2C_0000_0000L + i);
        String[] city = CITIES[rng.nextInt(CITIES.length)];
        String title = TITLES[rng.nextInt(TITLES.length)];
        try {
            // add() rather than the DefaultEntry(dn, "attr", "value"...) constructor, which parses LDIF.
            Entry e = new DefaultEntry(dn(i));
            e.add("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson");
            e.add("cn", given + " " + sn);
            e.add("sn", sn);
            e.add("givenName", given);
            e.add("initials", given.charAt(0) + ". " + sn.charAt(0) + ".");
            e.add("uid", uid);
            e.add("mail", given + "_" + sn + "." + i + "@example.com");
            e.add("userPassword", ssha(uid, rng));
            e.add("description", title + " in " + unit + ", " + city[0] + " office, employee " + (i + 1));
            e.add("departmentNumber", Integer.toString(1000 + 1000 * (i / PER_UNIT % 100) + rng.nextInt(100)));
            e.add("employeeType", EMPLOYEE_TYPES[rng.nextInt(EMPLOYEE_TYPES.length)]);
            e.add("title", title);
            e.add("ou", unit);
            e.add("l", city[0]);
            e.add(
                    "roomNumber",
                    (1 + rng.nextInt(9)) + "" + (char) ('A' + rng.nextInt(6)) + "-" + (100 + rng.nextInt(900)));
            e.add("telephoneNumber", phone(city[3], rng));
            e.add("facsimileTelephoneNumber", phone(city[3], rng));
            e.add("homePhone", phone(city[3], rng));
            e.add("mobile", phone(city[3], rng));
            e.add("pager", phone("800", rng));
            e.add("carLicense", carLicense(rng));
            e.add(
                    "postalAddress",
                    (1 + rng.nextInt(9999)) + " " + STREETS[rng.nextInt(STREETS.length)] + " "
                            + STREET_KINDS[rng.nextInt(STREET_KINDS.length)] + "$" + city[0] + ", " + city[1] + " "
                            + city[2]);
            // People who come earlier, so both DNs name entries that exist in any store holding i.
            e.add("manager", dn(i / 100 * 100));
            e.add("secretary", dn(i / 10 * 10));
            return e;
        } catch (LdapException e) {
            throw new IllegalStateException(e);
        }
    }

    public static String unitName(int unit) {
        return String.format(Locale.ROOT, "unit%03d", unit);
    }

    private static String phone(String area, SplitMix64 rng) {
        return String.format(Locale.ROOT, "+1 %s 555 %04d", area, rng.nextInt(10_000));
    }

    private static String carLicense(SplitMix64 rng) {
        StringBuilder s = new StringBuilder().append(1 + rng.nextInt(9));
        for (int k = 0; k < 3; k++) {
            s.append((char) ('A' + rng.nextInt(26)));
        }
        return s.append(100 + rng.nextInt(900)).toString();
    }

    /** RFC 2307 {@code {SSHA}}: base64(SHA-1(password + salt) + salt), with a salt from the person's stream. */
    private static String ssha(String password, SplitMix64 rng) {
        byte[] salt = new byte[8];
        long bits = rng.nextLong();
        for (int k = 0; k < salt.length; k++) {
            salt[k] = (byte) (bits >>> (8 * k));
        }
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            sha1.update(password.getBytes(StandardCharsets.UTF_8));
            sha1.update(salt);
            byte[] digest = sha1.digest();
            byte[] digestAndSalt = Arrays.copyOf(digest, digest.length + salt.length);
            System.arraycopy(salt, 0, digestAndSalt, digest.length, salt.length);
            return "{SSHA}" + Base64.getEncoder().encodeToString(digestAndSalt);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform must provide SHA-1", e);
        }
    }

    /** An organizationalUnit container as a client would send it. */
    public static Entry unit(String dn, String ou) {
        try {
            return new DefaultEntry(dn, "objectClass", "top", "objectClass", "organizationalUnit", "ou", ou);
        } catch (LdapException e) {
            throw new IllegalStateException(e);
        }
    }
}
