package dev.larch.bench.run;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import com.unboundid.ldap.sdk.AddRequest;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.CompareRequest;
import com.unboundid.ldap.sdk.DeleteRequest;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ModifyDNRequest;
import com.unboundid.ldap.sdk.ModifyRequest;
import com.unboundid.ldap.sdk.RDN;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.bench.data.DataSample;
import dev.larch.bench.gen.SplitMix64;
import dev.larch.bench.mix.Expectation;
import dev.larch.bench.mix.Mix;
import dev.larch.bench.mix.OperationSpec;
import dev.larch.bench.mix.Template;
import dev.larch.bench.mix.Variable;

/**
 * One worker's script: an endless, seeded sequence of requests following the mix shares, each
 * carrying what its correct answer is according to the data file.
 *
 * <p>The same seed gives the same sequence of operations and values, so a worker's script is
 * reproducible as DirectoryMark's pre-generated scripts were, without holding it in memory. The
 * names of entries the worker adds are the exception: they carry a token unique to this factory, so
 * runs and workers (and other load-generator processes) never collide. Not thread-safe: one
 * instance per worker; the entries it owns may be updated from SDK threads.
 */
public final class RequestFactory {
    /** Variables that name one person: an exact lookup by one of them must return that person. */
    private static final Set<Variable> PERSON_KEYS =
            EnumSet.of(Variable.MAIL, Variable.UID, Variable.CN, Variable.PERSON_DN);

    private static final String PROCESS_TOKEN =
            Long.toString(new SecureRandom().nextLong() & Long.MAX_VALUE, 36).substring(0, 6);
    private static final AtomicLong FACTORIES = new AtomicLong();

    private final List<OperationSpec> operations;
    private final double[] cumulative;
    private final List<Set<Variable>> variables;
    private final DataSample data;
    private final SplitMix64 rng;
    private final OwnEntries owned = new OwnEntries();
    private final String token = PROCESS_TOKEN + FACTORIES.incrementAndGet();
    private long added;
    private final ServerTarget target;

    public RequestFactory(Mix mix, DataSample data, long seed) {
        this(mix, data, seed, null);
    }

    /**
     * @param target where a churn operation opens its own connections (secured as the target says);
     *     null: like the worker's connection, without repeating a StartTLS upgrade
     */
    public RequestFactory(Mix mix, DataSample data, long seed, ServerTarget target) {
        this.target = target;
        this.operations = mix.operations();
        this.data = data;
        this.rng = new SplitMix64(seed);
        this.cumulative = new double[operations.size()];
        double sum = 0;
        for (int i = 0; i < operations.size(); i++) {
            sum += operations.get(i).share();
            cumulative[i] = sum;
        }
        this.variables = operations.stream().map(OperationSpec::variables).toList();
    }

    /** The index of the next operation, drawn by share; never an operation with share 0. */
    public int nextOperation() {
        double u = rng.nextDouble() * cumulative[cumulative.length - 1];
        for (int i = 0; i < cumulative.length; i++) {
            if (u < cumulative[i]) {
                return i;
            }
        }
        for (int i = cumulative.length - 1; ; i--) { // u rounded up to the total: last non-empty share
            if (operations.get(i).share() > 0) {
                return i;
            }
        }
    }

    public Request next() {
        int index = nextOperation();
        OperationSpec op = operations.get(index);
        Set<Variable> vars = variables.get(index);
        int person = data.pickPerson(vars, rng);
        int group = vars.contains(Variable.GROUP_DN) ? data.pickGroup(rng) : -1;
        // One value per variable per request, so e.g. ${sn} used twice means the same surname.
        Map<Variable, String> values = new EnumMap<>(Variable.class);
        Function<Variable, String> lookup = v -> values.computeIfAbsent(v, x -> data.value(x, person, group, rng));
        String base = op.base().render(lookup, s -> s);
        return switch (op.type()) {
            case SEARCH -> search(index, op, base, person, group, lookup, values);
            case MODIFY ->
                new ModifyCall(
                        index,
                        op,
                        new ModifyRequest(
                                base,
                                new Modification(
                                        ModificationType.REPLACE,
                                        op.attribute(),
                                        op.value().render(lookup, s -> s))));
            case COMPARE ->
                new CompareCall(
                        index,
                        op,
                        new CompareRequest(base, op.attribute(), op.value().render(lookup, s -> s)));
            case ADD -> add(index, op, person);
            case DELETE -> delete(index, op, person);
            case MODRDN -> rename(index, op, person);
            case BIND -> new BindCall(index, op, base, op.password().render(lookup, s -> s));
            case AUTHENTICATE -> login(index, op, base, person, lookup);
            case CHURN -> new ChurnCall(login(index, op, base, person, lookup), target);
        };
    }

    /**
     * Deletes the entries these scripts added and still own, once their workers have stopped, so
     * the next run starts from the data set's size; returns how many were deleted. Connects only
     * when there is something to delete; a failure to connect leaves the entries (and returns 0).
     */
    public static int deleteOwnEntries(List<RequestFactory> scripts, ServerTarget target) {
        if (scripts.stream().allMatch(s -> s.owned.size() == 0)) {
            return 0;
        }
        try (LDAPConnection connection = target.open()) {
            return deleteOwnEntries(scripts, connection);
        } catch (LDAPException e) {
            return 0;
        }
    }

    /** Deletes the entries these scripts own through {@code connection}; returns how many were deleted. */
    static int deleteOwnEntries(List<RequestFactory> scripts, LDAPConnection connection) {
        int deleted = 0;
        for (RequestFactory s : scripts) {
            deleted += s.owned.deleteAll(connection);
        }
        return deleted;
    }

    /** How many added entries this script owns now. */
    int ownedEntries() {
        return owned.size();
    }

    private SearchCall search(
            int index,
            OperationSpec op,
            String base,
            int person,
            int group,
            Function<Variable, String> lookup,
            Map<Variable, String> values) {
        Template filterTemplate = op.filters()
                .get(op.filters().size() == 1 ? 0 : rng.nextInt(op.filters().size()));
        String filterText = filterTemplate.render(lookup, Filter::encodeValue);
        List<String> attributes = new ArrayList<>(op.attributes());
        Map<String, String> prefixes = new LinkedHashMap<>();
        if (filterTemplate.variables().contains(Variable.SN_PREFIX)) {
            prefixes.put("sn", values.get(Variable.SN_PREFIX));
        }
        if (filterTemplate.variables().contains(Variable.GIVEN_NAME_PREFIX)) {
            prefixes.put("givenName", values.get(Variable.GIVEN_NAME_PREFIX));
        }
        // A wildcard hit can only be checked against its prefix if the attribute comes back.
        prefixes.keySet().forEach(a -> {
            if (!requested(attributes, a)) {
                attributes.add(a);
            }
        });
        Set<Variable> used = EnumSet.noneOf(Variable.class);
        used.addAll(op.base().variables());
        used.addAll(filterTemplate.variables());
        Expected expected;
        boolean baseAbsent = op.base().variables().contains(Variable.ABSENT_PERSON_DN);
        if (op.expect() == Expectation.ONE
                && op.scope().equals(SearchScope.BASE)
                && op.base().variables().contains(Variable.GROUP_DN)) {
            List<String> members = requested(attributes, "member") || requested(attributes, "uniqueMember")
                    ? data.groupMembers(group)
                    : null;
            expected =
                    new Expected(data.groupDn(group), Map.of(), members, prefixes, op.requireAttributes(), baseAbsent);
        } else if (op.expect() == Expectation.ONE
                && person >= 0
                && used.stream().anyMatch(PERSON_KEYS::contains)) {
            expected = personExpected(op, person, attributes, prefixes);
        } else {
            expected = new Expected(null, Map.of(), null, prefixes, op.requireAttributes(), baseAbsent);
        }
        try {
            SearchRequest request =
                    new SearchRequest(base, op.scope(), Filter.create(filterText), attributes.toArray(String[]::new));
            request.setSizeLimit(op.sizeLimit());
            return new SearchCall(index, op, request, expected);
        } catch (LDAPException e) {
            // Values are escaped and the template was checked at load time, so this is a harness bug.
            throw new IllegalStateException("rendered an invalid filter " + filterText, e);
        }
    }

    /**
     * The person asked for: each kept attribute the request asks for and the person has, with its
     * value, and each other requested attribute every person in the data file has (for "all user
     * attributes", all of those but userPassword, which servers commonly withhold).
     */
    private Expected personExpected(
            OperationSpec op, int person, List<String> attributes, Map<String, String> prefixes) {
        Map<String, String> kept = new LinkedHashMap<>();
        for (String attribute : DataSample.ATTRIBUTES) {
            String value = data.attribute(attribute, person);
            if (!value.isEmpty() && requested(attributes, attribute)) {
                kept.put(attribute, value);
            }
        }
        List<String> required = new ArrayList<>(op.requireAttributes());
        for (String a : attributes) {
            if (!a.equals("*") && data.everyPersonHas(a) && !kept.containsKey(a)) {
                required.add(a);
            }
        }
        if (requested(attributes, "*")) {
            required.addAll(data.attributesOfEveryPerson().stream()
                    .filter(a -> !a.equals("userpassword") && !a.equals("objectclass"))
                    .toList());
        }
        return new Expected(data.personDn(person), kept, null, prefixes, List.copyOf(required), false);
    }

    /** Whether an entry returned for {@code attributes} carries {@code attribute} (when the entry has it). */
    static boolean requested(List<String> attributes, String attribute) {
        if (attributes.isEmpty()) {
            return true;
        }
        for (String a : attributes) {
            if (a.equals("*") || a.equalsIgnoreCase(attribute)) {
                return true;
            }
        }
        return false;
    }

    private AuthenticateCall login(
            int index, OperationSpec op, String dn, int person, Function<Variable, String> lookup) {
        BindCall bind = new BindCall(index, op, dn, op.password().render(lookup, s -> s));
        List<String> attributes = op.attributes();
        Expected expected = person >= 0 && op.base().variables().contains(Variable.PERSON_DN)
                ? personExpected(op, person, attributes, Map.of())
                : new Expected(dn, Map.of(), null, Map.of(), op.requireAttributes(), false);
        SearchRequest read = new SearchRequest(
                dn, SearchScope.BASE, Filter.createPresenceFilter("objectClass"), attributes.toArray(String[]::new));
        return new AuthenticateCall(bind, new SearchCall(index, op, read, expected));
    }

    /** Adds an entry of this worker's own, in the container of a drawn person. */
    private AddCall add(int index, OperationSpec op, int person) {
        String cn = newCn();
        String dn = new RDN("cn", cn) + "," + data.container(person);
        AddRequest request = new AddRequest(
                dn,
                new Attribute("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
                new Attribute("cn", cn),
                new Attribute("sn", "bench"),
                new Attribute("description", "added by larch client-bench; deleted by the same worker"));
        return new AddCall(index, op, request, owned);
    }

    /** Deletes this worker's oldest own entry; adds one instead when it owns none yet. */
    private ResultCall delete(int index, OperationSpec op, int person) {
        String dn = owned.takeOldest();
        return dn == null ? add(index, op, person) : new DeleteCall(index, op, new DeleteRequest(dn), owned);
    }

    /** Renames this worker's oldest own entry within its container; adds one instead when it owns none. */
    private ResultCall rename(int index, OperationSpec op, int person) {
        String dn = owned.takeOldest();
        if (dn == null) {
            return add(index, op, person);
        }
        RDN rdn = new RDN("cn", newCn());
        String parent = dn.substring(dn.indexOf(',') + 1); // our own RDNs hold no comma
        return new ModRdnCall(index, op, new ModifyDNRequest(dn, rdn.toString(), true), rdn + "," + parent, owned);
    }

    /** A cn no other worker, run or process uses: this factory's token and a counter. */
    private String newCn() {
        return String.format(Locale.ROOT, "bench %s %d", token, ++added);
    }
}
