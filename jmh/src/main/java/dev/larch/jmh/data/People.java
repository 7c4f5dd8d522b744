package dev.larch.jmh.data;

import java.util.Locale;

import org.apache.directory.api.ldap.model.entry.DefaultEntry;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.exception.LdapException;

/**
 * Deterministic inetOrgPerson entries for the benchmarks: person {@code i} always has the same
 * values, so two runs (and two machines) measure the same data.
 *
 * <p>People live in units of {@link #PER_UNIT} under {@code ou=people}: person {@code i} is
 * {@code uid=user<i, 6 digits>,ou=unit<i / 1000, 3 digits>,ou=people,<suffix>}. Units keep the
 * one-level walk and the exact-match lookups the same size whatever the total.
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
    private static final String[] TITLES = {"Engineer", "Manager", "Analyst", "Director", "Technician", "Clerk"};
    private static final String[] CITIES = {"Springfield", "Riverside", "Fairview", "Madison", "Georgetown"};

    private People() {}

    public static String uid(int i) {
        return String.format(Locale.ROOT, "user%06d", i);
    }

    public static String unitDn(int unit) {
        return String.format(Locale.ROOT, "ou=unit%03d,%s", unit, PEOPLE);
    }

    public static String dn(int i) {
        return "uid=" + uid(i) + "," + unitDn(i / PER_UNIT);
    }

    /** Person {@code i} as a client would send it (not schema-aware). */
    public static Entry person(int i) {
        String given = GIVEN[i % GIVEN.length];
        // Surnames change every GIVEN.length people, so given and surname combine into many names.
        String sn = SURNAMES[(i / GIVEN.length) % SURNAMES.length];
        String uid = uid(i);
        try {
            // add() rather than the DefaultEntry(dn, "attr", "value"...) constructor, which parses LDIF.
            Entry e = new DefaultEntry(dn(i));
            e.add("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson");
            e.add("uid", uid);
            e.add("cn", given + " " + sn);
            e.add("sn", sn);
            e.add("givenName", given);
            e.add("mail", uid + "@example.com");
            e.add("telephoneNumber", String.format(Locale.ROOT, "+1 555 %03d %04d", i / 10_000 % 1000, i % 10_000));
            e.add("employeeNumber", Integer.toString(i));
            e.add("title", TITLES[i % TITLES.length]);
            e.add("l", CITIES[i % CITIES.length]);
            e.add("description", "Benchmark person number " + i + " of the generated directory");
            return e;
        } catch (LdapException e) {
            throw new IllegalStateException(e);
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
