package dev.larch.jmh;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import dev.larch.config.LarchConfig;
import dev.larch.server.accesslog.AccessLogOutput;
import dev.larch.server.accesslog.AccessLoggingHandler;
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
import org.openjdk.jmh.infra.Blackhole;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What writing one finished access line costs the thread that logs it, with the server's access log
 * output ({@link AccessLogOutput} on standard output, the default) behind the logger: the hand-off to
 * the log's writer thread, and, since the loop logs without pause, the wait for room whenever the
 * writer (formatting the line's prefix, batching writes into a 64 KiB buffer) lags. Standard output is
 * {@code /dev/null} during the run: the system calls are made, no terminal or disk is measured. (Not a
 * rolling file on {@code /dev/null}: a roll-over would rename it.) {@code format}
 * chooses the encoder: {@code text} formats the time and level prefix on the writer thread, {@code
 * json} writes the bare line. The line is the messaging mix's typical search, already formatted
 * ({@link AccessLineBenchmark} measures the formatting).
 *
 * <p>{@link #searchLine} logs without pause, so the writer always finds a backlog: it measures the
 * hand-off at its busiest. {@link #searchLineAmidWork} logs one line per {@value #WORK_TOKENS} tokens of
 * {@link Blackhole#consumeCPU} (tens of microseconds, an operation's worth of work), as a server's
 * request thread does: the writer catches up between lines, and what waking it (or not) costs the
 * logging thread shows in the time per operation; {@link #workAlone} is that work without the line.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {Jvm.OPEN_NIO, Jvm.OPEN_NIO_CH, Jvm.NATIVE_ACCESS, Jvm.HEAP_MIN, Jvm.HEAP_MAX, Jvm.PRE_TOUCH})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class AccessLogHandOffBenchmark {
    private static final String LINE = "conn=7 op=2 SEARCH base=\"ou=people,dc=example,dc=com\" scope=sub"
            + " filter=\"(uid=user012345)\" result=0 entries=1 etime=0.230";

    /** The work between two lines of {@link #searchLineAmidWork}. */
    static final long WORK_TOKENS = 10_000;

    @Param({"text", "json"})
    public String format;

    private PrintStream standardOutput;
    private AccessLogOutput output;
    private Logger log;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        standardOutput = System.out;
        // Unbuffered and without autoflush: each of the access log's batches is one write.
        System.setOut(new PrintStream(new FileOutputStream("/dev/null"), false, StandardCharsets.UTF_8));
        output = AccessLogOutput.install(LarchConfig.builder()
                .set("logging.access-log-format", format)
                .build()
                .logging());
        log = LoggerFactory.getLogger(AccessLoggingHandler.LOGGER_NAME);
        if (!log.isInfoEnabled()) {
            throw new IllegalStateException("the access logger is off: the benchmark would measure nothing");
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        output.close();
        PrintStream devNull = System.out;
        System.setOut(standardOutput);
        devNull.close();
    }

    @Benchmark
    public void searchLine() {
        log.info(LINE);
    }

    @Benchmark
    public void searchLineAmidWork() {
        Blackhole.consumeCPU(WORK_TOKENS);
        log.info(LINE);
    }

    @Benchmark
    public void workAlone() {
        Blackhole.consumeCPU(WORK_TOKENS);
    }
}
