package dev.larch.jmh;

import java.text.ParseException;
import java.util.concurrent.TimeUnit;

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

/**
 * Index reads and the scope walk on a generated store of {@code entries} people, each operation in
 * its own read transaction as a search has. Candidate sets come from the real {@link SearchPlanner};
 * set-up checks that each filter takes the plan its benchmark is named for.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {Jvm.OPEN_NIO, Jvm.OPEN_NIO_CH, Jvm.NATIVE_ACCESS})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class StoreBenchmark {

    /** People in the store; at least 20,000 so every target below exists. */
    @Param("100000")
    public int entries;

    private GeneratedDirectory data;
    private LmdbStore store;
    private Directory directory;
    private SearchPlanner planner;
    private Filter uidEquality;
    private Filter uidInitial;
    private Filter uidAny;
    private Filter everything;
    private long unitId;

    @Setup(Level.Trial)
    public void setUp() throws ParseException {
        if (entries < 20_000) {
            throw new IllegalArgumentException("entries must be at least 20000, was " + entries);
        }
        data = GeneratedDirectory.create(entries);
        store = data.open().store();
        directory = data.open().directory();
        planner = new SearchPlanner(store, data.config().limits().indexEntryLimit());
        FilterCompiler compiler = new FilterCompiler(data.schema());
        uidEquality = compiler.compile(FilterParser.parse("(uid=user012345)"));
        uidInitial = compiler.compile(FilterParser.parse("(uid=user01234*)"));
        uidAny = compiler.compile(FilterParser.parse("(uid=*12345*)"));
        everything = compiler.compile(FilterParser.parse("(objectClass=*)"));
        try (ReadTxn txn = store.read()) {
            unitId = directory.require(txn, directory.schemaNormalizer().dn(People.unitDn(12)));
        }
        try (ReadTxn txn = store.read()) {
            expect("eq(uid)", planner.plan(txn, uidEquality).explanation());
            expect("eq-prefix(uid)", planner.plan(txn, uidInitial).explanation());
            expect("sub(uid)", planner.plan(txn, uidAny).explanation());
            expect("scan", planner.plan(txn, everything).explanation());
        }
        expect(1, equalityLookup());
        expect(10, substringInitialScan());
        if (substringAnyScan() < 1) {
            throw new IllegalStateException("benchmark set-up: (uid=*12345*) found no candidates");
        }
        expect(People.PER_UNIT, oneLevelWalk());
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        data.close();
    }

    /** {@code (uid=user012345)}: one key of the uid equality index. */
    @Benchmark
    public int equalityLookup() {
        try (ReadTxn txn = store.read()) {
            return planner.plan(txn, uidEquality).ids().size();
        }
    }

    /** {@code (uid=user01234*)}: a key-prefix range scan of the uid equality index (10 IDs). */
    @Benchmark
    public int substringInitialScan() {
        try (ReadTxn txn = store.read()) {
            return planner.plan(txn, uidInitial).ids().size();
        }
    }

    /** {@code (uid=*12345*)}: the substring index's grams read and intersected. */
    @Benchmark
    public int substringAnyScan() {
        try (ReadTxn txn = store.read()) {
            IdSet ids = planner.plan(txn, uidAny).ids();
            return ids.size();
        }
    }

    /**
     * A one-level search of one unit ({@value People#PER_UNIT} children) with an unindexed filter:
     * DN-index prefix walk, every entry loaded, decoded and checked.
     */
    @Benchmark
    public int oneLevelWalk() {
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

    private static void expect(Object expected, Object actual) {
        if (!expected.equals(actual)) {
            throw new IllegalStateException("benchmark set-up: expected " + expected + " but got " + actual);
        }
    }
}
