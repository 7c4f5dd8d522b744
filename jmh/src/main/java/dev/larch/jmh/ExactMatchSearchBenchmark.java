package dev.larch.jmh;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.larch.config.LarchConfig;
import dev.larch.jmh.data.GeneratedDirectory;
import dev.larch.jmh.data.People;
import dev.larch.server.RequestHandlers;
import dev.larch.server.StoredDirectory;
import dev.larch.server.auth.Credentials;
import dev.larch.server.auth.PasswordCheck;
import dev.larch.server.commit.WriteQueue;
import dev.larch.server.net.LdapChannelInitializer;
import dev.larch.server.net.ListenerOptions;
import dev.larch.server.work.WorkerPool;
import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import org.apache.directory.api.asn1.ber.Asn1Decoder;
import org.apache.directory.api.ldap.codec.api.LdapApiService;
import org.apache.directory.api.ldap.codec.api.LdapApiServiceFactory;
import org.apache.directory.api.ldap.codec.api.LdapMessageContainer;
import org.apache.directory.api.ldap.model.message.Message;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.SearchResultDone;
import org.apache.directory.api.ldap.model.message.SearchResultEntry;
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
 * The complete exact-match search in process: request bytes in, response bytes out, no socket.
 * The bytes go through the pipeline a connection gets ({@link LdapChannelInitializer}: frame
 * decoder, message decoder, encoder, dispatcher) on an {@link EmbeddedChannel}, into the real
 * handlers ({@link RequestHandlers}) over a generated store of {@code entries} people. One operation is
 * {@code (uid=<a random person's uid>)} from the suffix, subtree scope, all user attributes: one entry
 * and a done; or, for {@link #exactMatchSearchMiss}, a uid nobody has: a done alone. The requests of
 * every person are encoded in set-up and drawn by {@link KeyDraw}, so the store is read all over as
 * real clients read it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {Jvm.OPEN_NIO, Jvm.OPEN_NIO_CH, Jvm.NATIVE_ACCESS, Jvm.HEAP_MIN, Jvm.HEAP_MAX, Jvm.PRE_TOUCH})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class ExactMatchSearchBenchmark {

    /** Requests each set-up checks, spread evenly over the people. */
    static final int CHECKED_REQUESTS = 200;

    /** People in the store; at least one. */
    @Param("100000")
    public int entries;

    private GeneratedDirectory data;
    private WriteQueue writes;
    private WorkerPool workers;
    private EmbeddedChannel channel;
    /** Request {@code i} searches for person {@code i}. */
    private byte[][] hits;
    /** Request {@code i} searches for a uid beside person {@code i}'s that nobody has. */
    private byte[][] misses;

    @Setup(Level.Trial)
    public void setUp() {
        if (entries < 1) {
            throw new IllegalArgumentException("entries must be at least 1, was " + entries);
        }
        data = GeneratedDirectory.create(entries);
        StoredDirectory open = data.open();
        LarchConfig config = data.config();
        writes = new WriteQueue(open.store());
        workers = new WorkerPool("jmh-worker", 1, 0);
        var handler = RequestHandlers.over(
                open,
                data.schema(),
                config.limits(),
                config.security(),
                new NoCredentials(open.directory().schemaNormalizer().dn("cn=admin," + config.suffix())),
                writes,
                workers,
                "jmh");
        var l = config.listen();
        ListenerOptions options = new ListenerOptions(l.host(), 0, 1, l.maxPduBytes(), 0, l.maxFilterDepth());
        channel = new EmbeddedChannel(LdapChannelInitializer.standalone(options, handler));
        LdapApiService codec = LdapApiServiceFactory.getSingleton();
        hits = new byte[entries][];
        misses = new byte[entries][];
        for (int i = 0; i < entries; i++) {
            hits[i] = Requests.encode(codec, Requests.exactMatch(2, People.uid(i)));
            misses[i] = Requests.encode(codec, Requests.exactMatch(2, People.absentUid(i)));
        }
        int step = Math.max(1, entries / CHECKED_REQUESTS);
        for (int i = 0; i < entries; i += step) {
            checkAnswer(codec, hits[i], "uid=" + People.uid(i) + ",");
            checkAnswer(codec, misses[i], null);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        channel.finishAndReleaseAll();
        writes.close();
        workers.close();
        data.close();
    }

    /** A random person found: one entry and a done. Returns the response bytes, so nothing is optimized away. */
    @Benchmark
    public int exactMatchSearch(KeyDraw draw) {
        return search(hits[draw.next(hits.length)]);
    }

    /** A uid nobody has (beside a random person's): a done with no entry. */
    @Benchmark
    public int exactMatchSearchMiss(KeyDraw draw) {
        return search(misses[draw.next(misses.length)]);
    }

    private int search(byte[] request) {
        ByteBuf in = channel.alloc().directBuffer(request.length).writeBytes(request);
        channel.writeInbound(in);
        int bytes = 0;
        for (ByteBuf pdu = channel.readOutbound(); pdu != null; pdu = channel.readOutbound()) {
            bytes += pdu.readableBytes();
            pdu.release();
        }
        return bytes;
    }

    /**
     * The benchmark must measure a successful search returning exactly the one person whose DN starts
     * with {@code dnStart}, or none when it is null.
     */
    private void checkAnswer(LdapApiService codec, byte[] request, String dnStart) {
        channel.writeInbound(channel.alloc().directBuffer(request.length).writeBytes(request));
        List<Message> answer = new ArrayList<>();
        for (ByteBuf pdu = channel.readOutbound(); pdu != null; pdu = channel.readOutbound()) {
            try {
                LdapMessageContainer<Message> container = new LdapMessageContainer<>(codec);
                ByteBuffer buffer = pdu.nioBuffer();
                while (buffer.hasRemaining()) {
                    Asn1Decoder.decode(buffer, container);
                    answer.add(container.getMessage());
                    container.clean();
                }
            } catch (Exception e) {
                throw new IllegalStateException("benchmark set-up: response does not decode", e);
            } finally {
                pdu.release();
            }
        }
        int entriesExpected = dnStart == null ? 0 : 1;
        boolean ok = answer.size() == entriesExpected + 1
                && (dnStart == null
                        || (answer.get(0) instanceof SearchResultEntry e
                                && e.getObjectName().getName().startsWith(dnStart)))
                && answer.get(entriesExpected) instanceof SearchResultDone d
                && d.getLdapResult().getResultCode() == ResultCodeEnum.SUCCESS;
        if (!ok) {
            throw new IllegalStateException("benchmark set-up: expected " + entriesExpected + " entries (" + dnStart
                    + "...) and success, got " + answer);
        }
    }

    /** Nobody binds in this benchmark; searches run anonymously. */
    private record NoCredentials(Dn adminDn) implements Credentials {
        @Override
        public PasswordCheck checkAdmin(byte[] presented) {
            return PasswordCheck.MISMATCH;
        }

        @Override
        public PasswordCheck check(byte[] storedUserPassword, byte[] presented) {
            return PasswordCheck.MISMATCH;
        }

        @Override
        public void checkAgainstNothing(byte[] presented) {}
    }
}
