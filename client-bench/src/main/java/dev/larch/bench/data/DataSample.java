package dev.larch.bench.data;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import com.unboundid.ldap.sdk.RDN;
import dev.larch.bench.gen.SplitMix64;
import dev.larch.bench.mix.Variable;

/**
 * Every person and every group with members of a data file, from which requests draw their
 * names, mails, DNs and groups, and against which answers are checked.
 *
 * <p>People are kept column by column ({@link #ATTRIBUTES}, plus the DN) in compact UTF-8 columns,
 * and each group with its full member list, so a million people and ten thousand groups of a
 * hundred fit in about 200 MB of heap. People and groups are drawn uniformly or Zipf-skewed
 * ({@link #withKeySkew}). Immutable after construction and safe to share between worker threads;
 * randomness comes from each caller's own generator.
 */
public final class DataSample {
    /** The person attributes kept (first value in file order), in column order after the DN. */
    public static final List<String> ATTRIBUTES = List.of("cn", "sn", "givenName", "mail", "uid");

    static final int CN = 0;
    static final int SN = 1;
    static final int GIVEN = 2;
    static final int MAIL = 3;
    static final int UID = 4;

    /**
     * What the sampler read; shared by every view made with {@link #withKeySkew}.
     *
     * @param memberStart group g's members are {@code members[memberStart[g] .. memberStart[g+1])}
     * @param everyPersonHas lower-case base names of the attributes every person has a value of
     */
    record Store(
            String source,
            String suffix,
            long entries,
            DnColumn personDns,
            StringColumn[] columns,
            long[] peopleWith,
            DnColumn groupDns,
            DnColumn members,
            int[] memberStart,
            Set<String> everyPersonHas) {}

    private final Store store;
    private final KeyPicker people;
    private final KeyPicker groups;

    DataSample(Store store) {
        this(
                store,
                KeyPicker.of(store.personDns().size(), 0, 0),
                KeyPicker.of(store.groupDns().size(), 0, 0));
    }

    private DataSample(Store store, KeyPicker people, KeyPicker groups) {
        this.store = store;
        this.people = people;
        this.groups = groups;
    }

    /**
     * The same data, with people and groups drawn Zipf-skewed by {@code skew} (0: uniformly); the
     * seed decides which keys are hot.
     */
    public DataSample withKeySkew(double skew, long seed) {
        return new DataSample(
                store,
                KeyPicker.of(store.personDns().size(), skew, SplitMix64.derive(seed, 0x9E0)),
                KeyPicker.of(store.groupDns().size(), skew, SplitMix64.derive(seed, 0x9E1)));
    }

    public double keySkew() {
        return people.skew();
    }

    public String source() {
        return store.source();
    }

    /** The DN of the first entry of the file, taken as the naming context. */
    public String suffix() {
        return store.suffix();
    }

    public long entries() {
        return store.entries();
    }

    public int people() {
        return store.personDns().size();
    }

    public int groups() {
        return store.groupDns().size();
    }

    /**
     * Lists what the data lacks for the given variables, one message per missing piece; empty when
     * every variable can be filled.
     */
    public List<String> missing(Collection<Variable> variables) {
        List<String> problems = new ArrayList<>();
        for (Variable v : variables) {
            boolean ok = switch (v) {
                case SUFFIX -> store.suffix() != null;
                case ABSENT_NAME, ABSENT_MAIL, RANDOM -> true;
                case PERSON_DN, ABSENT_PERSON_DN -> people() > 0;
                case GROUP_DN -> groups() > 0;
                default -> store.peopleWith()[column(v)] > 0;
            };
            if (!ok) {
                problems.add("${" + v.placeholder() + "} needs "
                        + (v.isPersonAttribute() ? "person entries with a '" + v.needs() + "' attribute" : v.needs()));
            }
        }
        return problems;
    }

    /**
     * Draws a person that has every person attribute among {@code variables}; tries a few times
     * and returns the last draw if none had all (the caller then renders with what it has), or -1
     * when the data holds no people.
     */
    public int pickPerson(Collection<Variable> variables, SplitMix64 rng) {
        if (people() == 0) {
            return -1;
        }
        int candidate = people.pick(rng);
        for (int attempt = 0; attempt < 32 && !hasAll(candidate, variables); attempt++) {
            candidate = people.pick(rng);
        }
        return candidate;
    }

    /** Draws a group with members, or -1 when the data holds none. */
    public int pickGroup(SplitMix64 rng) {
        return groups() == 0 ? -1 : groups.pick(rng);
    }

    private boolean hasAll(int person, Collection<Variable> variables) {
        for (Variable v : variables) {
            if (v.isPersonAttribute() && !store.columns()[column(v)].has(person)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The value of {@code v} for {@code person} (from {@link #pickPerson}) and {@code group} (from
     * {@link #pickGroup}); never null ("" where the data has none).
     */
    public String value(Variable v, int person, int group, SplitMix64 rng) {
        return switch (v) {
            case SUFFIX -> store.suffix();
            case GROUP_DN -> group < 0 ? "" : groupDn(group);
            case PERSON_DN -> person < 0 ? "" : personDn(person);
            case SN_PREFIX -> prefix(cell(SN, person), rng);
            case GIVEN_NAME_PREFIX -> prefix(cell(GIVEN, person), rng);
            case ABSENT_NAME -> absentName(person, rng);
            case ABSENT_MAIL -> "absent." + token(rng) + "@" + mailDomain(person);
            case ABSENT_PERSON_DN -> new RDN("cn", absentName(person, rng)) + "," + container(person);
            case RANDOM -> token(rng);
            default -> cell(column(v), person);
        };
    }

    public String personDn(int person) {
        return store.personDns().get(person);
    }

    /** The DN above {@code person}'s entry: where people live (e.g. {@code ou=Payroll,dc=example,dc=com}). */
    public String container(int person) {
        return person < 0 ? store.suffix() : store.personDns().parent(person);
    }

    /**
     * The first value of one of {@link #ATTRIBUTES} (matched case-insensitively) for {@code person};
     * "" when the person has none.
     *
     * @throws IllegalArgumentException for an attribute that is not kept
     */
    public String attribute(String name, int person) {
        for (int c = 0; c < ATTRIBUTES.size(); c++) {
            if (ATTRIBUTES.get(c).equalsIgnoreCase(name)) {
                return cell(c, person);
            }
        }
        throw new IllegalArgumentException(name + " is not kept; kept: " + ATTRIBUTES);
    }

    /**
     * Whether every person in the file has a value of {@code attribute} (case-insensitive, options
     * ignored), so that an answer about any person that asks for it must show it.
     */
    public boolean everyPersonHas(String attribute) {
        return store.everyPersonHas().contains(attribute.toLowerCase(Locale.ROOT));
    }

    /** The lower-case base names of the attributes every person has, sorted. */
    public List<String> attributesOfEveryPerson() {
        return store.everyPersonHas().stream().sorted().toList();
    }

    public String groupDn(int group) {
        return store.groupDns().get(group);
    }

    /** Every member (and uniqueMember) value of {@code group}, as the file wrote them. */
    public List<String> groupMembers(int group) {
        int from = store.memberStart()[group];
        int to = store.memberStart()[group + 1];
        List<String> out = new ArrayList<>(to - from);
        for (int m = from; m < to; m++) {
            out.add(store.members().get(m));
        }
        return out;
    }

    private String cell(int column, int person) {
        return person < 0 ? "" : store.columns()[column].get(person);
    }

    /** 4 or 5 characters, as an address-book user types before pausing; the whole name if shorter. */
    private static String prefix(String name, SplitMix64 rng) {
        int len = 4 + rng.nextInt(2);
        return name.length() <= len ? name : name.substring(0, len);
    }

    private static String token(SplitMix64 rng) {
        return Long.toString(rng.nextLong() & Long.MAX_VALUE, 36);
    }

    /** A real given name with a surname containing digits and a random token, which no directory holds. */
    private String absentName(int person, SplitMix64 rng) {
        String given = cell(GIVEN, person);
        return (given.isEmpty() ? "Nobody" : given) + " Absent" + token(rng);
    }

    private String mailDomain(int person) {
        String mail = cell(MAIL, person);
        int at = mail.indexOf('@');
        return at < 0 ? "example.invalid" : mail.substring(at + 1).toLowerCase(Locale.ROOT);
    }

    private static int column(Variable v) {
        return switch (v) {
            case MAIL -> MAIL;
            case UID -> UID;
            case CN -> CN;
            case SN, SN_PREFIX -> SN;
            case GIVEN_NAME, GIVEN_NAME_PREFIX -> GIVEN;
            default -> throw new IllegalArgumentException(v + " is not a person column");
        };
    }
}
