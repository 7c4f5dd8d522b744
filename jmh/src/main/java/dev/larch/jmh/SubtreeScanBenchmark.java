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
 * A whole subtree search of {@code ou=people} (not the naming context's root, so scope is really
 * checked) over a generated store of {@code entries} people in units of {@value People#PER_UNIT}:
 * every person is returned, each read, its DN rebuilt from the parent chain and the filter checked,
 * in one read transaction as a search has.
 *
 * <ul>
 *   <li>{@link #subtreeWalk}: an unindexed filter, so the subtree is enumerated by walking the DN
 *       tree's children ranges;
 *   <li>{@link #subtreeIndexedCandidates}: {@code (objectClass=person)}, indexed, so every candidate
 *       from the index has its subtree scope checked up its parent chain.
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {Jvm.OPEN_NIO, Jvm.OPEN_NIO_CH, Jvm.NATIVE_ACCESS, Jvm.HEAP_MIN, Jvm.HEAP_MAX, Jvm.PRE_TOUCH})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class SubtreeScanBenchmark {

    /** People in the store, all below {@code ou=people}; at least one full unit. */
    @Param("10000")
    public int entries;

    private GeneratedDirectory data;
    private LmdbStore store;
    private Directory directory;
    private SearchPlanner planner;
    private long peopleId;
    private Filter unindexed;
    private Filter indexed;

    @Setup(Level.Trial)
    public void setUp() throws ParseException {
        if (entries < People.PER_UNIT) {
            throw new IllegalArgumentException("entries must be at least " + People.PER_UNIT + ", was " + entries);
        }
        data = GeneratedDirectory.create(entries);
        store = data.open().store();
        directory = data.open().directory();
        planner = new SearchPlanner(store, data.config().limits().indexEntryLimit());
        FilterCompiler compiler = new FilterCompiler(data.schema());
        unindexed = compiler.compile(FilterParser.parse("(objectClass=*)"));
        indexed = compiler.compile(FilterParser.parse("(objectClass=person)"));
        try (ReadTxn txn = store.read()) {
            peopleId = directory.require(txn, directory.schemaNormalizer().dn(People.PEOPLE));
            expect("scan", planner.plan(txn, unindexed).explanation());
            expect(true, planner.plan(txn, indexed).ids() != null);
        }
        expect(entries, subtreeWalk());
        expect(entries, subtreeIndexedCandidates());
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        data.close();
    }

    /** Every person below ou=people, found by walking the DN tree (an unindexed filter). */
    @Benchmark
    public int subtreeWalk() {
        return search(unindexed, null);
    }

    /** Every person below ou=people, from the objectClass index, each candidate's scope checked. */
    @Benchmark
    public int subtreeIndexedCandidates() {
        try (ReadTxn txn = store.read()) {
            return count(txn, indexed, planner.plan(txn, indexed).ids());
        }
    }

    private int search(Filter filter, IdSet candidates) {
        try (ReadTxn txn = store.read()) {
            return count(txn, filter, candidates);
        }
    }

    /** Matching entries; their DNs' lengths are summed too, so the DN is really built. */
    private int count(ReadTxn txn, Filter filter, IdSet candidates) {
        int n = 0;
        long dnChars = 0;
        try (SearchCursor cursor =
                new SearchCursor(directory, txn, peopleId, SearchScope.SUBTREE, filter, candidates, 0)) {
            for (StoredEntry e = cursor.next(); e != null; e = cursor.next()) {
                dnChars += e.dn().length();
                if (e.attribute("0.9.2342.19200300.100.1.1") != null) { // uid: a person, not a unit
                    n++;
                }
            }
        }
        if (dnChars == 0 && n > 0) {
            throw new IllegalStateException("entries without DNs");
        }
        return n;
    }

    private static void expect(Object expected, Object actual) {
        if (!expected.equals(actual)) {
            throw new IllegalStateException("benchmark set-up: expected " + expected + " but got " + actual);
        }
    }
}
