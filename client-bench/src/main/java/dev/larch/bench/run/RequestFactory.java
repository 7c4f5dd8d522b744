package dev.larch.bench.run;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.SearchRequest;
import dev.larch.bench.data.DataSample;
import dev.larch.bench.gen.SplitMix64;
import dev.larch.bench.mix.Mix;
import dev.larch.bench.mix.OperationSpec;
import dev.larch.bench.mix.Template;
import dev.larch.bench.mix.Variable;

/**
 * One worker's script: an endless, seeded sequence of requests following the mix shares.
 *
 * <p>The same seed gives the same sequence, so a worker's script is reproducible as
 * DirectoryMark's pre-generated scripts were, without holding it in memory. Not thread-safe: one
 * instance per worker.
 */
public final class RequestFactory {
    private final List<OperationSpec> operations;
    private final double[] cumulative;
    private final List<Set<Variable>> variables;
    private final DataSample data;
    private final SplitMix64 rng;

    public RequestFactory(Mix mix, DataSample data, long seed) {
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
        int person = data.pickPerson(variables.get(index), rng);
        Template filterTemplate = op.filters()
                .get(op.filters().size() == 1 ? 0 : rng.nextInt(op.filters().size()));
        // One value per variable per request, so e.g. ${sn} used twice means the same surname.
        Map<Variable, String> values = new EnumMap<>(Variable.class);
        Function<Variable, String> lookup = v -> values.computeIfAbsent(v, x -> data.value(x, person, rng));
        String base = op.base().render(lookup, s -> s);
        String filterText = filterTemplate.render(lookup, Filter::encodeValue);
        try {
            SearchRequest request = new SearchRequest(
                    base, op.scope(), Filter.create(filterText), op.attributes().toArray(String[]::new));
            request.setSizeLimit(op.sizeLimit());
            return new SearchCall(index, op, request);
        } catch (LDAPException e) {
            // Values are escaped and the template was checked at load time, so this is a harness bug.
            throw new IllegalStateException("rendered an invalid filter " + filterText, e);
        }
    }
}
