package dev.larch.jmh;

import java.util.concurrent.TimeUnit;

import dev.larch.jmh.data.GeneratedDirectory;
import dev.larch.jmh.data.People;
import dev.larch.server.maintenance.StoreVerifier;
import dev.larch.server.maintenance.VerifyReport;
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
 * {@code ./larch verify} of a generated store of {@code entries} people (the dbgen shape, {@link
 * People}, default indexes): every entry checked, the index records it should have sorted, and every
 * index walked once in key order against them ({@link StoreVerifier}). One invocation is one whole
 * verification (single-shot time, seconds), with the default sort memory and {@code threads}
 * threads: 1 isolates the walk itself, 2 is what this two-core machine runs.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {Jvm.OPEN_NIO, Jvm.OPEN_NIO_CH, Jvm.NATIVE_ACCESS, Jvm.HEAP_MIN, Jvm.HEAP_MAX, Jvm.PRE_TOUCH})
@Warmup(iterations = 1)
@Measurement(iterations = 5)
public class VerifyBenchmark {
    /** People in the store: 20,000 give about 2.2 million index records, enough for the walk to dominate. */
    @Param("20000")
    public int entries;

    @Param({"1", "2"})
    public int threads;

    private GeneratedDirectory data;

    @Setup(Level.Trial)
    public void setUp() {
        data = GeneratedDirectory.create(entries);
        VerifyReport report = verifyStore();
        if (!report.clean()) {
            throw new IllegalStateException("the generated store does not verify: " + report.listed());
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        data.close();
    }

    /** One whole verification; returns the index records compared, so the work is used. */
    @Benchmark
    public long verify() {
        return verifyStore().indexRecords();
    }

    private VerifyReport verifyStore() {
        return new StoreVerifier(
                        data.open().directory(), null, data.config().storage().importSortMemoryBytes(), threads)
                .verify();
    }
}
