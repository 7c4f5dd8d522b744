package dev.larch.bench.data;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import dev.larch.bench.gen.SplitMix64;
import dev.larch.bench.mix.Variable;

/**
 * Values sampled from a data file, from which requests draw their names, mails, DNs and groups.
 *
 * <p>People are kept column by column in plain arrays (a {@code null} cell means that person had
 * no such attribute). Immutable after construction and safe to share between worker threads;
 * randomness comes from each caller's own generator.
 */
public final class DataSample {
    /** Person columns, indexed like {@link #COLUMNS}. */
    static final String[] COLUMNS = {"dn", "cn", "sn", "givenName", "mail", "uid"};

    static final int DN = 0;
    static final int CN = 1;
    static final int SN = 2;
    static final int GIVEN = 3;
    static final int MAIL = 4;
    static final int UID = 5;

    private final String source;
    private final String suffix;
    private final long entries;
    private final long people;
    private final long groups;
    private final long[] peopleWith;
    private final String[][] columns; // [column][person]
    private final int sampled;
    private final String[] groupDns;

    DataSample(
            String source,
            String suffix,
            long entries,
            long people,
            long groups,
            long[] peopleWith,
            String[][] columns,
            int sampled,
            String[] groupDns) {
        this.source = source;
        this.suffix = suffix;
        this.entries = entries;
        this.people = people;
        this.groups = groups;
        this.peopleWith = peopleWith;
        this.columns = columns;
        this.sampled = sampled;
        this.groupDns = groupDns;
    }

    public String source() {
        return source;
    }

    /** The DN of the first entry of the file, taken as the naming context. */
    public String suffix() {
        return suffix;
    }

    public long entries() {
        return entries;
    }

    public long people() {
        return people;
    }

    public long groups() {
        return groups;
    }

    public int sampledPeople() {
        return sampled;
    }

    public int sampledGroups() {
        return groupDns.length;
    }

    /**
     * Lists what the data lacks for the given variables, one message per missing piece; empty when
     * every variable can be filled.
     */
    public List<String> missing(Collection<Variable> variables) {
        List<String> problems = new ArrayList<>();
        for (Variable v : variables) {
            boolean ok = switch (v) {
                case SUFFIX -> suffix != null;
                case ABSENT_NAME, ABSENT_MAIL -> true;
                case PERSON_DN -> people > 0;
                case GROUP_DN -> groupDns.length > 0;
                default -> peopleWith[column(v)] > 0;
            };
            if (!ok) {
                problems.add("${" + v.placeholder() + "} needs "
                        + (v.isPersonAttribute() ? "person entries with a '" + v.needs() + "' attribute" : v.needs()));
            }
        }
        return problems;
    }

    /**
     * Picks a sampled person that has every person attribute among {@code variables}; tries a few
     * times and returns -1 if none was found (the caller then renders with what it has).
     */
    public int pickPerson(Collection<Variable> variables, SplitMix64 rng) {
        if (sampled == 0) {
            return -1;
        }
        int candidate = rng.nextInt(sampled);
        for (int attempt = 0; attempt < 32; attempt++, candidate = rng.nextInt(sampled)) {
            if (hasAll(candidate, variables)) {
                return candidate;
            }
        }
        return candidate;
    }

    private boolean hasAll(int person, Collection<Variable> variables) {
        for (Variable v : variables) {
            if (v.isPersonAttribute() && columns[column(v)][person] == null) {
                return false;
            }
        }
        return true;
    }

    /** The value of {@code v} for {@code person} (from {@link #pickPerson}); never null. */
    public String value(Variable v, int person, SplitMix64 rng) {
        return switch (v) {
            case SUFFIX -> suffix;
            case GROUP_DN -> groupDns[rng.nextInt(groupDns.length)];
            case PERSON_DN -> cell(DN, person);
            case SN_PREFIX -> prefix(cell(SN, person), rng);
            case GIVEN_NAME_PREFIX -> prefix(cell(GIVEN, person), rng);
            case ABSENT_NAME -> absentName(person, rng);
            case ABSENT_MAIL -> "absent." + Long.toHexString(rng.nextLong()) + "@" + mailDomain(person);
            default -> cell(column(v), person);
        };
    }

    private String cell(int column, int person) {
        String s = person < 0 ? null : columns[column][person];
        return s == null ? "" : s;
    }

    /** 4 or 5 characters, as an address-book user types before pausing; the whole name if shorter. */
    private static String prefix(String name, SplitMix64 rng) {
        int len = 4 + rng.nextInt(2);
        return name.length() <= len ? name : name.substring(0, len);
    }

    /** A real given name with a surname containing digits and a random token, which no directory holds. */
    private String absentName(int person, SplitMix64 rng) {
        String given = cell(GIVEN, person);
        return (given.isEmpty() ? "Nobody" : given) + " Absent" + Long.toString(rng.nextLong() & Long.MAX_VALUE, 36);
    }

    private String mailDomain(int person) {
        String mail = cell(MAIL, person);
        int at = mail.indexOf('@');
        return at < 0 ? "example.invalid" : mail.substring(at + 1);
    }

    private static int column(Variable v) {
        return switch (v) {
            case MAIL -> MAIL;
            case UID -> UID;
            case CN -> CN;
            case SN, SN_PREFIX -> SN;
            case GIVEN_NAME, GIVEN_NAME_PREFIX -> GIVEN;
            case PERSON_DN -> DN;
            default -> throw new IllegalArgumentException(v + " is not a person column");
        };
    }
}
