package dev.larch.bench.cli;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import dev.larch.bench.data.DataSample;
import dev.larch.bench.mix.Mix;
import dev.larch.bench.mix.OperationSpec;
import dev.larch.bench.mix.Variable;

/** Checks before any load that a mix can run on this data with these credentials. */
final class MixFit {
    private MixFit() {}

    /**
     * Every operation with a share must find its values in the data, and writes need a bind DN;
     * otherwise nothing runs.
     *
     * @throws BadInputException naming each operation and what it lacks
     */
    static void check(Mix mix, DataSample sample, String bindDn) {
        List<String> problems = new ArrayList<>();
        for (OperationSpec op : mix.operations()) {
            if (op.share() <= 0) {
                continue;
            }
            Set<Variable> vars =
                    EnumSet.copyOf(op.variables().isEmpty() ? EnumSet.of(Variable.SUFFIX) : op.variables());
            for (String p : sample.missing(vars)) {
                problems.add("operation '" + op.name() + "': " + p);
            }
        }
        if (!problems.isEmpty()) {
            throw new BadInputException("data file " + sample.source() + " lacks what mix '" + mix.name() + "' needs: "
                    + String.join("; ", problems));
        }
        if (bindDn == null) {
            for (OperationSpec op : mix.operations()) {
                if (op.share() > 0 && op.type().writes()) {
                    throw new BadInputException("mix '" + mix.name() + "' writes (operation '" + op.name() + "', "
                            + op.type().label() + "): give --bind-dn and --bind-password of an account with write"
                            + " rights (e.g. the rootdn)");
                }
            }
        }
    }
}
