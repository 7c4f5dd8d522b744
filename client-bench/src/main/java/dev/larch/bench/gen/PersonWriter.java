package dev.larch.bench.gen;

import java.util.Locale;

/**
 * Formats one inetOrgPerson entry with the 23 dbgen attribute types as LDIF.
 *
 * <p>Every value is chosen to pass strict syntax checks: telephone numbers use only characters of
 * the PrintableString set, postal addresses use {@code $} as the line separator and never contain
 * {@code $} or {@code \} otherwise, manager and secretary are full DNs. Values are plain ASCII with
 * no leading space, colon or {@code <}, so LDIF never needs base64 here. Not thread-safe.
 */
final class PersonWriter {
    private static final String[] TITLES = {
        "Engineer", "Senior Engineer", "Staff Engineer", "Manager", "Director", "Accountant",
        "Analyst", "Test Engineer", "Technical Writer", "Recruiter", "Payroll Specialist", "Architect",
        "Administrative Assistant", "Vice President", "Consultant", "Product Manager"
    };
    private static final String[] EMPLOYEE_TYPES = {"Employee", "Contractor", "Intern", "Temp", "Part-time"};
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

    private final Ssha ssha = new Ssha();
    private final String mailDomain;

    PersonWriter(String mailDomain) {
        this.mailDomain = mailDomain;
    }

    /** Appends the entry (with its trailing blank line) to {@code out}. */
    void write(StringBuilder out, Person p, SplitMix64 rng) {
        String[] city = CITIES[rng.nextInt(CITIES.length)];
        String title = TITLES[rng.nextInt(TITLES.length)];
        String uid = p.given().toLowerCase(Locale.ROOT) + "." + p.family().toLowerCase(Locale.ROOT);
        line(out, "dn", p.dn());
        line(out, "objectClass", "top");
        line(out, "objectClass", "person");
        line(out, "objectClass", "organizationalPerson");
        line(out, "objectClass", "inetOrgPerson");
        line(out, "cn", p.cn());
        line(out, "sn", p.family());
        line(out, "givenName", p.given());
        line(out, "initials", p.given().charAt(0) + ". " + p.family().charAt(0) + ".");
        line(out, "uid", uid);
        line(out, "mail", p.given() + "_" + p.family() + "@" + mailDomain);
        // The password of every generated person is its uid; documented in client-bench/README.md.
        line(out, "userPassword", ssha.hash(uid, rng));
        line(out, "description", title + " in " + p.unit() + ", " + city[0] + " office, employee " + (p.index() + 1));
        line(out, "departmentNumber", Integer.toString(1000 + 1000 * p.unitIndex() + rng.nextInt(100)));
        line(out, "employeeType", EMPLOYEE_TYPES[rng.nextInt(EMPLOYEE_TYPES.length)]);
        line(out, "title", title);
        line(out, "ou", p.unit());
        line(out, "l", city[0]);
        line(
                out,
                "roomNumber",
                (1 + rng.nextInt(9)) + "" + (char) ('A' + rng.nextInt(6)) + "-" + (100 + rng.nextInt(900)));
        phone(out, "telephoneNumber", city[3], rng);
        phone(out, "facsimileTelephoneNumber", city[3], rng);
        phone(out, "homePhone", city[3], rng);
        phone(out, "mobile", city[3], rng);
        phone(out, "pager", "800", rng);
        out.append("carLicense: ").append(1 + rng.nextInt(9));
        for (int i = 0; i < 3; i++) {
            out.append((char) ('A' + rng.nextInt(26)));
        }
        out.append(100 + rng.nextInt(900)).append('\n');
        line(
                out,
                "postalAddress",
                (1 + rng.nextInt(9999)) + " " + STREETS[rng.nextInt(STREETS.length)] + " "
                        + STREET_KINDS[rng.nextInt(STREET_KINDS.length)] + "$" + city[0] + ", " + city[1] + " "
                        + city[2]);
        line(out, "manager", p.managerDn());
        line(out, "secretary", p.secretaryDn());
        out.append('\n');
    }

    private static void phone(StringBuilder out, String attr, String area, SplitMix64 rng) {
        out.append(attr).append(": +1 ").append(area).append(" 555 ");
        int n = rng.nextInt(10_000);
        out.append((char) ('0' + n / 1000))
                .append((char) ('0' + n / 100 % 10))
                .append((char) ('0' + n / 10 % 10))
                .append((char) ('0' + n % 10))
                .append('\n');
    }

    static void line(StringBuilder out, String attr, String value) {
        out.append(attr).append(": ").append(value).append('\n');
    }

    /** What the generator decided about one person before formatting. */
    record Person(
            long index,
            String given,
            String family,
            String cn,
            String dn,
            int unitIndex,
            String unit,
            String managerDn,
            String secretaryDn) {}
}
