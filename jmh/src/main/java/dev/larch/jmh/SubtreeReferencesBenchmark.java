package dev.larch.jmh;

import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.larch.jmh.data.GeneratedDirectory;
import dev.larch.jmh.data.People;
import dev.larch.server.directory.Directory;
import dev.larch.server.directory.SubtreeNames;
import dev.larch.server.store.LmdbStore;
import dev.larch.server.store.ReadTxn;
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
 * What a modify DN of one unit ({@value People#PER_UNIT} people) costs to find the {@code manager}
 * values naming an entry inside it, under its old and new name: one range read of the manager index
 * (which holds one record per person) under each name. Every person names the first of their hundred
 * as manager, so the answer is the unit's {@value People#PER_UNIT} records. {@link
 * SubtreeRenameBenchmark} measures a whole rename whose subtree nothing refers into.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {Jvm.OPEN_NIO, Jvm.OPEN_NIO_CH, Jvm.NATIVE_ACCESS, Jvm.HEAP_MIN, Jvm.HEAP_MAX, Jvm.PRE_TOUCH})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class SubtreeReferencesBenchmark {
    private static final String MANAGER = "0.9.2342.19200300.100.1.10";

    /** People in the store, in units of {@value People#PER_UNIT}. */
    @Param("10000")
    public int entries;

    private GeneratedDirectory data;
    private LmdbStore store;
    private Directory directory;
    private List<String> names;

    @Setup(Level.Trial)
    public void setUp() {
        data = GeneratedDirectory.create(entries);
        store = data.open().store();
        directory = data.open().directory();
        names = List.of(
                directory.schemaNormalizer().dn(People.unitDn(0)).getNormName(),
                directory.schemaNormalizer().dn("ou=renamed," + People.PEOPLE).getNormName());
        int found = managersNamingTheUnit();
        if (found != People.PER_UNIT) {
            throw new IllegalStateException("expected " + People.PER_UNIT + " manager records, found " + found);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        data.close();
    }

    @Benchmark
    public int managersNamingTheUnit() {
        try (ReadTxn txn = store.read()) {
            SubtreeNames below = new SubtreeNames(txn, directory, names);
            return below.below(MANAGER).size();
        }
    }
}
