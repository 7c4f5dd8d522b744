package dev.larch.jmh;

import java.util.concurrent.TimeUnit;

import dev.larch.server.net.IdleTimeout;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.timeout.IdleStateHandler;
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
 * One response written, then flushed, through a connection's idle timeout, as the dispatcher writes
 * it (a listener on the write's future): Netty's {@link IdleStateHandler} with an all-idle time, which
 * puts a listener of its own on every write, against the server's {@link IdleTimeout}. Run with
 * {@code -prof gc} for the bytes each write makes.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {Jvm.OPEN_NIO, Jvm.OPEN_NIO_CH, Jvm.NATIVE_ACCESS, Jvm.HEAP_MIN, Jvm.HEAP_MAX, Jvm.PRE_TOUCH})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class IdleTimeoutBenchmark {
    /** What the connection's pipeline times idleness with. */
    @Param({"netty", "larch"})
    public String idle;

    private static final ChannelFutureListener ON_FAILURE = future -> {
        if (!future.isSuccess()) {
            throw new IllegalStateException(future.cause());
        }
    };

    private EmbeddedChannel channel;
    private ByteBuf response;

    @Setup(Level.Trial)
    public void setUp() {
        ChannelHandler handler = idle.equals("netty")
                ? new IdleStateHandler(0, 0, 900, TimeUnit.SECONDS)
                : new IdleTimeout(900, TimeUnit.SECONDS);
        channel = new EmbeddedChannel(handler);
        response = Unpooled.directBuffer(64).writeZero(64);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        channel.finishAndReleaseAll();
        response.release();
    }

    @Benchmark
    public Object writeThenFlush() {
        // Flushed after the listener is added, as the server's flush waits for the end of the read
        // that led to the response (FlushConsolidationHandler): the write is still pending then.
        channel.write(response.retain()).addListener(ON_FAILURE);
        channel.flush();
        ByteBuf written = channel.readOutbound();
        written.release();
        return written;
    }
}
