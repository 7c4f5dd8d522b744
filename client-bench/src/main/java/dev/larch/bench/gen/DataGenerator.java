package dev.larch.bench.gen;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.RDN;

/**
 * Streams a DirectoryMark-shaped (dbgen) data set as LDIF.
 *
 * <p>Order: the suffix entry, the six ous, then people; after every {@code groupSize} people one
 * {@code groupOfNames} under {@code ou=Groups} lists them, so groups never reference an entry that
 * was not written before. Memory stays flat: the used-name table (about 14 MB), a pool of up to
 * 10,000 manager DNs (the earliest people) and the current group's DNs.
 *
 * <p>Manager and secretary always name existing entries: a manager is one of the earlier people in
 * the manager pool, a secretary one of the last 256 people written; person 0 (the head of the
 * company) is its own manager and secretary.
 */
public final class DataGenerator {
    private static final int MANAGER_POOL = 10_000;
    private static final int SECRETARY_WINDOW = 256;

    private final GenOptions options;
    private final NameLists names;

    public DataGenerator(GenOptions options) {
        this.options = options;
        this.names = NameLists.standard();
    }

    /** Counts of what was written. */
    public record Summary(long people, long groups, long entries, long bytes) {}

    /**
     * Writes the whole data set to {@code out} (which the caller buffers and closes).
     *
     * @throws IllegalArgumentException if the suffix is not a DN whose first RDN is dc or o, or more
     *     people are asked for than unique names allow
     */
    public Summary write(OutputStream out) throws IOException {
        String suffix = options.suffix().trim();
        UniqueNamePairs pairs =
                new UniqueNamePairs(names.given().size(), names.family().size(), options.nameSkew());
        if (options.people() > pairs.limit()) {
            throw new IllegalArgumentException("at most " + pairs.limit() + " people can get unique names");
        }
        SplitMix64 rng = new SplitMix64(options.seed());
        PersonWriter personWriter = new PersonWriter(mailDomain(suffix));
        StringBuilder sb = new StringBuilder(4096);
        long[] bytes = {0};
        long entries = 0;

        // No "version: 1" line: it is optional, and slapadd 2.5 reads it followed by a blank line as an entry without a
        // DN.
        writeSuffix(sb, suffix);
        entries++;
        List<String> units = new ArrayList<>(OrgUnits.PEOPLE_UNITS);
        units.add(OrgUnits.GROUPS);
        for (String unit : units) {
            PersonWriter.line(sb, "dn", "ou=" + unit + "," + suffix);
            PersonWriter.line(sb, "objectClass", "top");
            PersonWriter.line(sb, "objectClass", "organizationalUnit");
            PersonWriter.line(sb, "ou", unit);
            sb.append('\n');
            entries++;
        }
        flush(sb, out, bytes);

        List<String> managers = new ArrayList<>();
        String[] recent = new String[SECRETARY_WINDOW];
        List<String> groupMembers = new ArrayList<>(options.groupSize());
        long groups = 0;
        int familyCount = names.family().size();
        for (long i = 0; i < options.people(); i++) {
            int pair = pairs.next(rng);
            String given = names.given().get(pair / familyCount);
            String family = names.family().get(pair % familyCount);
            String cn = given + " " + family;
            int unitIndex = rng.nextInt(OrgUnits.PEOPLE_UNITS.size());
            String unit = OrgUnits.PEOPLE_UNITS.get(unitIndex);
            String dn = "cn=" + cn + ",ou=" + unit + "," + suffix;
            String manager = i == 0 ? dn : managers.get(rng.nextInt((int) Math.min(i, managers.size())));
            int window = (int) Math.min(i, SECRETARY_WINDOW);
            String secretary = i == 0 ? dn : recent[(int) ((i - 1 - rng.nextInt(window)) % SECRETARY_WINDOW)];
            personWriter.write(
                    sb, new PersonWriter.Person(i, given, family, cn, dn, unitIndex, unit, manager, secretary), rng);
            entries++;
            if (managers.size() < MANAGER_POOL) {
                managers.add(dn);
            }
            recent[(int) (i % SECRETARY_WINDOW)] = dn;
            groupMembers.add(dn);
            if (groupMembers.size() == options.groupSize() || i == options.people() - 1) {
                writeGroup(sb, ++groups, groupMembers, suffix);
                entries++;
                groupMembers.clear();
            }
            if (sb.length() > 1 << 16) {
                flush(sb, out, bytes);
            }
        }
        flush(sb, out, bytes);
        return new Summary(options.people(), groups, entries, bytes[0]);
    }

    private static void writeGroup(StringBuilder sb, long number, List<String> members, String suffix) {
        String cn = String.format(Locale.ROOT, "Group %06d", number);
        PersonWriter.line(sb, "dn", "cn=" + cn + ",ou=" + OrgUnits.GROUPS + "," + suffix);
        PersonWriter.line(sb, "objectClass", "top");
        PersonWriter.line(sb, "objectClass", "groupOfNames");
        PersonWriter.line(sb, "cn", cn);
        PersonWriter.line(sb, "description", "Mail distribution list " + number);
        for (String member : members) {
            PersonWriter.line(sb, "member", member);
        }
        sb.append('\n');
    }

    private static void writeSuffix(StringBuilder sb, String suffix) {
        RDN rdn = parse(suffix).getRDN();
        String attr = rdn.getAttributeNames()[0];
        String value = rdn.getAttributeValues()[0];
        PersonWriter.line(sb, "dn", suffix);
        PersonWriter.line(sb, "objectClass", "top");
        if (attr.equalsIgnoreCase("dc")) {
            PersonWriter.line(sb, "objectClass", "dcObject");
            PersonWriter.line(sb, "objectClass", "organization");
            PersonWriter.line(sb, "dc", value);
        } else {
            PersonWriter.line(sb, "objectClass", "organization");
        }
        PersonWriter.line(sb, "o", value);
        sb.append('\n');
    }

    /** {@code dc=example,dc=com} → {@code example.com}; a suffix without dc parts gets example.com. */
    static String mailDomain(String suffix) {
        StringBuilder domain = new StringBuilder();
        for (RDN rdn : parse(suffix).getRDNs()) {
            if (rdn.getAttributeNames()[0].equalsIgnoreCase("dc")) {
                if (!domain.isEmpty()) {
                    domain.append('.');
                }
                domain.append(rdn.getAttributeValues()[0]);
            }
        }
        return domain.isEmpty() ? "example.com" : domain.toString();
    }

    private static DN parse(String suffix) {
        for (int i = 0; i < suffix.length(); i++) {
            char c = suffix.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                throw new IllegalArgumentException("--suffix must be printable ASCII: " + suffix);
            }
        }
        try {
            DN dn = new DN(suffix);
            if (dn.isNullDN()) {
                throw new IllegalArgumentException("--suffix must not be empty");
            }
            String attr = dn.getRDN().getAttributeNames()[0];
            if (dn.getRDN().isMultiValued() || !(attr.equalsIgnoreCase("dc") || attr.equalsIgnoreCase("o"))) {
                throw new IllegalArgumentException("--suffix must start with a single dc= or o= RDN: " + suffix);
            }
            return dn;
        } catch (LDAPException e) {
            throw new IllegalArgumentException("--suffix is not a valid DN: " + suffix, e);
        }
    }

    private static void flush(StringBuilder sb, OutputStream out, long[] bytes) throws IOException {
        byte[] b = sb.toString().getBytes(StandardCharsets.US_ASCII);
        out.write(b);
        bytes[0] += b.length;
        sb.setLength(0);
    }
}
