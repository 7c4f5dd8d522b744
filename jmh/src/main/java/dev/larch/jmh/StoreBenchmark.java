package dev.larch.jmh;

import java.text.ParseException;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.ToIntFunction;

import dev.larch.jmh.data.GeneratedDirectory;
import dev.larch.jmh.data.People;
import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.search.Filter;
import dev.larch.server.search.FilterCompiler;
import dev.larch.server.search.SearchCursor;
import dev.larch.server.search.SearchPlanner;
import dev.larch.server.store.IdSet;
import dev.larch.server.store.LmdbStore;
import dev.larch.server.store.ReadTxn;
import org.apache.directory.api.ldap.model.filter.FilterParser;
import org.apache.directory.api.ldap.model.message.SearchScope;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Index reads and the scope walk on a generated store of {@code entries} people, each operation in
 * its own read transaction as a search has. Candidate sets come from the real {@link SearchPlanner}.
 *
 * <p>Every operation draws its key uniformly from a set as large as the store ({@link KeyDraw}):
 * every person's uid, every ten-person uid prefix, every unit. One fixed key would stay in the CPU's
 * caches and measure a cache. The {@code ...Miss} benchmarks look up keys that exist nowhere and
 * return the entries that match (always none): the path of a search that finds nothing, where the
 * planner's candidates (if any) are loaded and rejected.
 *
 * <p>Only the running benchmark's keys are compiled (filters of a whole store take memory and
 * time), and set-up checks that they measure what the name says: the plan, and on a spread sample of
 * keys the number of IDs or entries.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {Jvm.OPEN_NIO, Jvm.OPEN_NIO_CH, Jvm.NATIVE_ACCESS, Jvm.HEAP_MIN, Jvm.HEAP_MAX, Jvm.PRE_TOUCH})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class StoreBenchmark {

    /** Keys each set-up checks, spread evenly over the key set. */
    static final int CHECKED_KEYS = 1000;

    /** People in the store; at least one full unit ({@value People#PER_UNIT}). */
    @Param("100000")
    public int entries;

    private GeneratedDirectory data;
    private LmdbStore store;
    private Directory directory;
    private SearchPlanner planner;
    private long suffixId;
    /** The running benchmark's filters, one per key. */
    private Filter[] filters;
    /** oneLevelWalk's units (every full one) and its filter. */
    private long[] unitIds;

    private Filter everything;

    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) throws ParseException {
        if (entries < People.PER_UNIT) {
            throw new IllegalArgumentException("entries must be at least " + People.PER_UNIT + ", was " + entries);
        }
        data = GeneratedDirectory.create(entries);
        store = data.open().store();
        directory = data.open().directory();
        planner = new SearchPlanner(store, data.config().limits().indexEntryLimit());
        FilterCompiler compiler = new FilterCompiler(data.schema());
        everything = compiler.compile(FilterParser.parse("(objectClass=*)"));
        try (ReadTxn txn = store.read()) {
            suffixId = directory.require(txn, directory.schemaNormalizer().dn(People.SUFFIX));
        }
        String benchmark = params.getBenchmark();
        switch (benchmark.substring(benchmark.lastIndexOf('.') + 1)) {
            case "equalityLookup" -> {
                filters = compile(compiler, entries, i -> "(uid=" + People.uid(i) + ")");
                check("eq(uid)", 1, this::ids);
            }
            case "substringInitialScan" -> {
                // Every complete run of ten people: user01234* is user012340 to user012349.
                filters = compile(
                        compiler,
                        entries / 10,
                        i -> "(uid="
                                + People.uid(i * 10).substring(0, People.uid(0).length() - 1) + "*)");
                check("eq-prefix(uid)", 10, this::ids);
            }
            case "substringAnyScan" -> {
                // The last five digits of some person's number: that person, and a few others.
                filters =
                        compile(compiler, entries, i -> "(uid=*" + People.uid(i).substring(5) + "*)");
                check("sub(uid)", -1, this::ids);
            }
            case "equalityMiss" -> {
                filters = compile(compiler, entries, i -> "(uid=" + People.absentUid(i) + ")");
                check("eq(uid)", 0, this::matches);
            }
            case "substringAnyMiss" -> {
                // Seven digits: every gram is in the index, but no uid has more than six digits.
                filters = compile(
                        compiler,
                        entries,
                        i -> String.format(Locale.ROOT, "(uid=*%07d*)", (i * 7_919L + 1_234_567L) % 10_000_000L));
                check("sub(uid)", 0, this::matches);
            }
            case "oneLevelWalk" -> {
                unitIds = new long[entries / People.PER_UNIT];
                try (ReadTxn txn = store.read()) {
                    for (int u = 0; u < unitIds.length; u++) {
                        unitIds[u] = directory.require(
                                txn, directory.schemaNormalizer().dn(People.unitDn(u)));
                    }
                    expect("scan", planner.plan(txn, everything).explanation());
                }
                for (long unit : unitIds) {
                    expect(People.PER_UNIT, walk(unit));
                }
            }
            default -> throw new IllegalStateException("benchmark set-up: no keys for " + benchmark);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        data.close();
    }

    /** {@code (uid=user012345)} for a random person: one key of the uid equality index (1 ID). */
    @Benchmark
    public int equalityLookup(KeyDraw draw) {
        return ids(filters[draw.next(filters.length)]);
    }

    /** {@code (uid=user01234*)} for a random run of ten: a key-prefix range scan of the uid equality index (10 IDs). */
    @Benchmark
    public int substringInitialScan(KeyDraw draw) {
        return ids(filters[draw.next(filters.length)]);
    }

    /** {@code (uid=*12345*)} for a random person's last five digits: the substring index's grams read and intersected. */
    @Benchmark
    public int substringAnyScan(KeyDraw draw) {
        return ids(filters[draw.next(filters.length)]);
    }

    /** {@code (uid=user012345x)}, a uid nobody has, beside a random person's: the equality index finds nothing. */
    @Benchmark
    public int equalityMiss(KeyDraw draw) {
        return matches(filters[draw.next(filters.length)]);
    }

    /**
     * {@code (uid=*1234567*)}, seven random digits: every gram exists, their intersection is (nearly)
     * empty, and whatever candidates remain are loaded and rejected. No entry matches.
     */
    @Benchmark
    public int substringAnyMiss(KeyDraw draw) {
        return matches(filters[draw.next(filters.length)]);
    }

    /**
     * A one-level search of a random unit ({@value People#PER_UNIT} children) with an unindexed
     * filter: DN-index prefix walk, every entry loaded, decoded and checked.
     */
    @Benchmark
    public int oneLevelWalk(KeyDraw draw) {
        return walk(unitIds[draw.next(unitIds.length)]);
    }

    private int ids(Filter filter) {
        try (ReadTxn txn = store.read()) {
            return planner.plan(txn, filter).ids().size();
        }
    }

    /** The whole search from the suffix: plan, then each candidate loaded and checked. */
    private int matches(Filter filter) {
        int n = 0;
        try (ReadTxn txn = store.read()) {
            IdSet candidates = planner.plan(txn, filter).ids();
            try (SearchCursor cursor =
                    new SearchCursor(directory, txn, suffixId, SearchScope.SUBTREE, filter, candidates, 0)) {
                for (StoredEntry e = cursor.next(); e != null; e = cursor.next()) {
                    n++;
                }
            }
        }
        return n;
    }

    private int walk(long unitId) {
        int n = 0;
        try (ReadTxn txn = store.read();
                SearchCursor cursor =
                        new SearchCursor(directory, txn, unitId, SearchScope.ONELEVEL, everything, null, 0)) {
            for (StoredEntry e = cursor.next(); e != null; e = cursor.next()) {
                n++;
            }
        }
        return n;
    }

    private static Filter[] compile(FilterCompiler compiler, int n, IntFunction<String> filter) throws ParseException {
        Filter[] out = new Filter[n];
        for (int i = 0; i < n; i++) {
            out[i] = compiler.compile(FilterParser.parse(filter.apply(i)));
        }
        return out;
    }

    /**
     * Checks, on a spread sample of the keys, the plan and the count the benchmark's operation gives.
     *
     * @param expected the count each key must give, or -1 for "at least one"
     * @param operation what the benchmark does with a key: {@link #ids} or {@link #matches}
     */
    private void check(String plan, int expected, ToIntFunction<Filter> operation) {
        int step = Math.max(1, filters.length / CHECKED_KEYS);
        for (int k = 0; k < filters.length; k += step) {
            try (ReadTxn txn = store.read()) {
                expect(plan, planner.plan(txn, filters[k]).explanation());
            }
            int got = operation.applyAsInt(filters[k]);
            if (expected >= 0 ? got != expected : got < 1) {
                throw new IllegalStateException("benchmark set-up: " + filters[k] + " gave " + got + ", expected "
                        + (expected >= 0 ? expected : "at least 1"));
            }
        }
    }

    private static void expect(Object expected, Object actual) {
        if (!expected.equals(actual)) {
            throw new IllegalStateException("benchmark set-up: expected " + expected + " but got " + actual);
        }
    }
}
