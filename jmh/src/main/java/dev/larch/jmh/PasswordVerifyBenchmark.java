package dev.larch.jmh;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import dev.larch.config.LarchConfig;
import dev.larch.server.auth.PasswordHasher;
import dev.larch.server.auth.PasswordSchemes;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * What one simple bind's password check costs with each scheme the server can write, at the
 * default costs ({@code security.pbkdf2-iterations}, {@code security.argon2-*}): the work a bind does
 * on a worker thread. Operations per second of one thread; a server verifies on one worker per core,
 * so binds per second are at most this times the cores. The README's security table comes from here.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {Jvm.OPEN_NIO, Jvm.OPEN_NIO_CH, Jvm.NATIVE_ACCESS, Jvm.HEAP_MIN, Jvm.HEAP_MAX, Jvm.PRE_TOUCH})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class PasswordVerifyBenchmark {
    private static final byte[] PASSWORD = "correct horse battery staple".getBytes(StandardCharsets.UTF_8);

    @Param({"SSHA", "SSHA256", "SSHA512", "PBKDF2-SHA256", "ARGON2"})
    public String scheme;

    private byte[] stored;

    @Setup(Level.Trial)
    public void setUp() {
        stored = new PasswordHasher(scheme, LarchConfig.defaults().passwords()).hash(PASSWORD);
        if (!PasswordSchemes.verify(stored, PASSWORD, false)) {
            throw new IllegalStateException(scheme + ": the stored hash does not verify");
        }
    }

    @Benchmark
    public boolean verify() {
        return PasswordSchemes.verify(stored, PASSWORD, false);
    }
}
