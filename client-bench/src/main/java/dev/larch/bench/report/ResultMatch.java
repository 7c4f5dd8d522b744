package dev.larch.bench.report;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Whether two results measured the same thing: each check that fails gives one line naming the
 * field and both values. {@code bench compare} and {@code bench merge} refuse (exit 3) unless
 * {@code --force} when any line comes back.
 */
public final class ResultMatch {
    /** What may be checked. */
    public enum Check {
        /** mix name and SHA-256 of the mix file */
        MIX,
        /** the data file's path */
        DATA_PATH,
        /** the data set's entry, people and group counts */
        DATA_SIZE,
        /** closed loop, fixed rate, outstanding requests ({@link LoadModel}) */
        LOAD_MODEL,
        /** clients × threads */
        CLIENTS_THREADS,
        /** persistent or per-lookup connections */
        CONNECTION_MODEL,
        /** ramp or fixed load */
        RAMP,
        /** which runs the summary covers */
        BASIS,
        /** the number of measured runs */
        RUN_COUNT,
        /** warm-up, duration and interval seconds */
        TIMING,
        /** config fields this class does not know (added by later harness versions), when both results have them */
        OTHER_CONFIG
    }

    /** What {@code bench compare} checks. */
    public static final Set<Check> COMPARE = Set.of(
            Check.MIX,
            Check.DATA_PATH,
            Check.DATA_SIZE,
            Check.LOAD_MODEL,
            Check.CLIENTS_THREADS,
            Check.CONNECTION_MODEL,
            Check.RAMP,
            Check.BASIS,
            Check.OTHER_CONFIG);

    /**
     * What {@code bench merge} checks: the generators must replay the same workload in the same
     * rhythm; their client counts and data paths (hosts differ) may differ.
     */
    public static final Set<Check> MERGE = Set.of(
            Check.MIX,
            Check.DATA_SIZE,
            Check.LOAD_MODEL,
            Check.CONNECTION_MODEL,
            Check.RAMP,
            Check.RUN_COUNT,
            Check.TIMING,
            Check.OTHER_CONFIG);

    /** Config fields the checks above cover, or that may differ between comparable results. */
    private static final Set<String> KNOWN_FIELDS = Set.of(
            "mix",
            "mixSource",
            "mixSha256",
            "connectionModel",
            "shares",
            "seed",
            "dataFile",
            "dataEntries",
            "dataPeople",
            "dataGroups",
            "clients",
            "threads",
            "warmupSeconds",
            "durationSeconds",
            "intervalSeconds",
            "runs",
            "ramp",
            "generators",
            LoadModel.MODEL_FIELD,
            LoadModel.RATE_FIELD,
            LoadModel.OUTSTANDING_FIELD);

    private ResultMatch() {}

    /** One line per failed check, "field: A's value vs B's value"; empty when the results match. */
    public static List<String> differences(BenchResult a, BenchResult b, Set<Check> checks) {
        BenchResult.Config x = a.config();
        BenchResult.Config y = b.config();
        List<String> out = new ArrayList<>();
        if (checks.contains(Check.MIX) && (!x.mix().equals(y.mix()) || !Objects.equals(x.mixSha256(), y.mixSha256()))) {
            out.add("mix: " + x.mix() + " (sha256 " + shortSha(x) + ") vs " + y.mix() + " (sha256 " + shortSha(y)
                    + ")");
        }
        if (checks.contains(Check.DATA_PATH) && !Objects.equals(x.dataFile(), y.dataFile())) {
            out.add("data file: " + x.dataFile() + " vs " + y.dataFile());
        }
        if (checks.contains(Check.DATA_SIZE)
                && (x.dataEntries() != y.dataEntries()
                        || x.dataPeople() != y.dataPeople()
                        || x.dataGroups() != y.dataGroups())) {
            out.add("data size: " + dataSize(x) + " vs " + dataSize(y));
        }
        if (checks.contains(Check.LOAD_MODEL)) {
            LoadModel lx = LoadModel.of(x);
            LoadModel ly = LoadModel.of(y);
            if (!lx.equals(ly)) {
                out.add("load model: " + lx.label() + " vs " + ly.label());
            }
        }
        if (checks.contains(Check.CLIENTS_THREADS) && (x.clients() != y.clients() || x.threads() != y.threads())) {
            out.add("clients x threads: " + x.clients() + "x" + x.threads() + " vs " + y.clients() + "x" + y.threads());
        }
        if (checks.contains(Check.CONNECTION_MODEL) && !Objects.equals(x.connectionModel(), y.connectionModel())) {
            out.add("connection model: " + x.connectionModel() + " vs " + y.connectionModel());
        }
        if (checks.contains(Check.RAMP) && x.ramp() != y.ramp()) {
            out.add("ramp vs fixed: " + (x.ramp() ? "ramp" : "fixed") + " vs " + (y.ramp() ? "ramp" : "fixed"));
        }
        if (checks.contains(Check.BASIS) && !basisKind(a).equals(basisKind(b))) {
            out.add("basis: " + a.summary().basis() + " vs " + b.summary().basis());
        }
        if (checks.contains(Check.RUN_COUNT) && a.runs().size() != b.runs().size()) {
            out.add("runs: " + a.runs().size() + " vs " + b.runs().size());
        }
        if (checks.contains(Check.TIMING)
                && (x.warmupSeconds() != y.warmupSeconds()
                        || x.durationSeconds() != y.durationSeconds()
                        || x.intervalSeconds() != y.intervalSeconds())) {
            out.add("timing (warm-up/duration/interval s): " + timing(x) + " vs " + timing(y));
        }
        if (checks.contains(Check.OTHER_CONFIG)) {
            otherFields(JsonReport.tree(x), JsonReport.tree(y), out);
        }
        return out;
    }

    /** The basis without the ramp's peak load, which {@link Check#CLIENTS_THREADS} covers. */
    private static String basisKind(BenchResult r) {
        String basis = r.summary().basis();
        return basis.startsWith("ramp peak") ? "ramp peak" : basis;
    }

    /** Config fields outside {@link #KNOWN_FIELDS} that both configs have and that differ. */
    static void otherFields(JsonNode a, JsonNode b, List<String> out) {
        for (Iterator<String> names = a.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (KNOWN_FIELDS.contains(name) || !b.has(name)) {
                continue;
            }
            if (!a.get(name).equals(b.get(name))) {
                out.add("config " + name + ": " + a.get(name) + " vs " + b.get(name));
            }
        }
    }

    private static String shortSha(BenchResult.Config c) {
        String sha = c.mixSha256() == null ? "none" : c.mixSha256();
        return sha.length() > 12 ? sha.substring(0, 12) : sha;
    }

    private static String dataSize(BenchResult.Config c) {
        return c.dataEntries() + " entries (" + c.dataPeople() + " people, " + c.dataGroups() + " groups)";
    }

    private static String timing(BenchResult.Config c) {
        return SvgChart.fmt(c.warmupSeconds()) + "/" + SvgChart.fmt(c.durationSeconds()) + "/"
                + SvgChart.fmt(c.intervalSeconds());
    }
}
