package dev.larch.jmh;

import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.larch.jmh.data.GeneratedDirectory;
import dev.larch.jmh.data.People;
import dev.larch.server.directory.Directory;
import dev.larch.server.directory.SchemaNormalizer;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.group.MemberOfMaintainer;
import dev.larch.server.search.FilterCompiler;
import dev.larch.server.search.GroupGraph;
import dev.larch.server.search.SearchPlanner;
import dev.larch.server.store.LmdbStore;
import dev.larch.server.store.WriteTxn;
import dev.larch.server.write.Integrity;
import org.apache.directory.api.ldap.model.entry.Entry;
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
 * A modify DN of {@code ou=people}, above every generated person ({@code entries} descendants in
 * units), renamed to {@code ou=staff} and back, as the server's modify DN writes it with stored
 * memberOf and referential integrity of group members kept: the entry rewritten and moved in the DN
 * index, then whatever depends on the descendants' DNs brought up to date, in one committed write
 * transaction per rename. The generated people belong to no group, so nothing but the renamed entry
 * needs writing: the score is what finding that out costs. (Integrity of {@code manager} and {@code
 * secretary}, on by default, is left out: every generated person names one of each in its own unit,
 * so each rename would rewrite every person, and the score would be that rewrite.)
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {Jvm.OPEN_NIO, Jvm.OPEN_NIO_CH, Jvm.NATIVE_ACCESS, Jvm.HEAP_MIN, Jvm.HEAP_MAX, Jvm.PRE_TOUCH})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class SubtreeRenameBenchmark {

    /** People in the store, all below {@code ou=people}. */
    @Param("10000")
    public int entries;

    private GeneratedDirectory data;
    private LmdbStore store;
    private Directory directory;
    private SchemaNormalizer normalizer;
    private Integrity integrity;
    private final String[] names = {People.PEOPLE, "ou=staff," + People.SUFFIX};
    private int at;

    @Setup(Level.Trial)
    public void setUp() {
        data = GeneratedDirectory.create(entries);
        store = data.open().store();
        directory = data.open().directory();
        normalizer = directory.schemaNormalizer();
        FilterCompiler compiler = new FilterCompiler(data.schema());
        SearchPlanner planner = new SearchPlanner(store, data.config().limits().indexEntryLimit());
        directory.maintainMemberOf(new MemberOfMaintainer(directory, new GroupGraph(directory, compiler, planner)));
        integrity = new Integrity(
                directory, compiler, planner, data.open().checker(), List.of("member", "uniqueMember"), List.of());
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (at == 1) {
            rename(); // leaves the store as it was built, for a later fork that copies it
        }
        data.close();
    }

    /** ou=people renamed to ou=staff, or back. */
    @Benchmark
    public long rename() {
        String from = names[at];
        String to = names[1 - at];
        at = 1 - at;
        try (WriteTxn txn = store.write()) {
            long id = directory.require(txn, normalizer.dn(from));
            StoredEntry before = directory.load(txn, id);
            Entry entry = normalizer.toEntry(before);
            entry.setDn(normalizer.dn(to));
            StoredEntry after = directory.move(txn, before, before.parentId(), entry);
            long read = directory.subtreeRenamed(txn, id, before.dn(), after.dn());
            Dn admin = directory.administrator();
            integrity.referencesMoved(txn, normalizer.dn(before.dn()), normalizer.dn(after.dn()), admin);
            read += integrity.referencesMovedBelow(txn, before.dn(), after.dn(), admin);
            txn.commit();
            return read;
        }
    }
}
