package dev.larch.jmh;

import java.util.concurrent.TimeUnit;

import dev.larch.jmh.data.GeneratedDirectory;
import dev.larch.jmh.data.People;
import dev.larch.server.StoredDirectory;
import dev.larch.server.directory.Directory;
import dev.larch.server.store.LmdbStore;
import dev.larch.server.store.ReadTxn;
import org.apache.directory.api.ldap.model.name.Dn;
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
 * A person's DN to its entry ID in a read transaction of its own, as a bind starts: the transaction
 * begun and ended, the DN ({@code uid=...,ou=unit...,ou=people,dc=example,dc=com}, already parsed)
 * resolved through the DN index. Persons are drawn at random over a generated store of {@code
 * entries}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {Jvm.OPEN_NIO, Jvm.OPEN_NIO_CH, Jvm.NATIVE_ACCESS, Jvm.HEAP_MIN, Jvm.HEAP_MAX, Jvm.PRE_TOUCH})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class DnResolveBenchmark {
    /** People in the store; at least one. */
    @Param("100000")
    public int entries;

    private GeneratedDirectory data;
    private LmdbStore store;
    private Directory directory;
    /** Person {@code i}'s DN, parsed schema-aware once in set-up. */
    private Dn[] people;

    @Setup(Level.Trial)
    public void setUp() {
        if (entries < 1) {
            throw new IllegalArgumentException("entries must be at least 1, was " + entries);
        }
        data = GeneratedDirectory.create(entries);
        StoredDirectory open = data.open();
        store = open.store();
        directory = open.directory();
        people = new Dn[entries];
        for (int i = 0; i < entries; i++) {
            people[i] = directory.schemaNormalizer().dn(People.dn(i));
        }
        try (ReadTxn txn = store.read()) {
            for (int i = 0; i < entries; i += Math.max(1, entries / 200)) {
                if (directory.resolve(txn, people[i]) == ReadTxn.NOT_FOUND) {
                    throw new IllegalStateException("benchmark set-up: " + People.dn(i) + " does not resolve");
                }
            }
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        data.close();
    }

    @Benchmark
    public long resolvePerson(KeyDraw draw) {
        try (ReadTxn txn = store.read()) {
            return directory.resolve(txn, people[draw.next(people.length)]);
        }
    }
}
