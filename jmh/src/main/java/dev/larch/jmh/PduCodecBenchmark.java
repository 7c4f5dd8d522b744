package dev.larch.jmh;

import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.larch.jmh.data.SampleEntries;
import dev.larch.schema.LarchSchema;
import dev.larch.server.directory.SchemaNormalizer;
import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.net.LdapMessageDecoder;
import dev.larch.server.net.LdapMessageEncoder;
import dev.larch.server.net.ListenerOptions;
import dev.larch.server.protocol.SelectedEntry;
import dev.larch.server.search.AttributeSelection;
import dev.larch.server.search.EntryScreen;
import dev.larch.server.search.ResultEntries;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.apache.directory.api.ldap.codec.api.LdapApiService;
import org.apache.directory.api.ldap.codec.api.LdapApiServiceFactory;
import org.apache.directory.api.ldap.model.message.Message;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.SearchRequest;
import org.apache.directory.api.ldap.model.message.SearchResultDone;
import org.apache.directory.api.ldap.model.message.SearchResultDoneImpl;
import org.apache.directory.api.ldap.model.message.SearchResultEntry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The server's own {@link LdapMessageDecoder} and {@link LdapMessageEncoder} on one PDU each, called
 * through their channel-free methods (the pipeline calls the same code). The search request is the exact-match search a directory
 * answers most; the entry is a generated inetOrgPerson built as the search handler builds results.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {Jvm.OPEN_NIO, Jvm.OPEN_NIO_CH, Jvm.NATIVE_ACCESS, Jvm.HEAP_MIN, Jvm.HEAP_MAX, Jvm.PRE_TOUCH})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class PduCodecBenchmark {

    /** What a channel's context hands the encoder: Netty's default, pooled. */
    private final ByteBufAllocator alloc = ByteBufAllocator.DEFAULT;

    private LdapMessageDecoder decoder;
    private LdapMessageEncoder encoder;
    private ByteBuf searchRequest;
    private SearchResultEntry entry;
    private StoredEntry stored;
    private ResultEntries results;
    private AttributeSelection everyUserAttribute;
    private SearchResultDone done;

    @Setup(Level.Trial)
    public void setUp() {
        LdapApiService codec = LdapApiServiceFactory.getSingleton();
        decoder = new LdapMessageDecoder(
                codec, ListenerOptions.DEFAULT_MAX_PDU_BYTES, ListenerOptions.DEFAULT_MAX_FILTER_DEPTH);
        encoder = new LdapMessageEncoder(codec);

        byte[] request = Requests.encode(codec, Requests.exactMatch(2, "user012345"));
        searchRequest = Unpooled.directBuffer(request.length).writeBytes(request);
        stored = SampleEntries.stored(new SchemaNormalizer(LarchSchema.standard()));
        entry = resultEntry(3, stored);
        results = new ResultEntries(null);
        everyUserAttribute = AttributeSelection.of(List.of(), LarchSchema.standard());
        done = new SearchResultDoneImpl(3);
        done.getLdapResult().setResultCode(ResultCodeEnum.SUCCESS);

        if (!(decodeSearchRequest() instanceof SearchRequest)) {
            throw new IllegalStateException("benchmark set-up: the request did not decode as a search");
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        searchRequest.release();
    }

    /** One framed SearchRequest PDU (a direct buffer, as read from a socket) to a {@link SearchRequest}. */
    @Benchmark
    public Object decodeSearchRequest() {
        return decoder.decode(searchRequest);
    }

    /** A SearchResultEntry of a dbgen-shaped person (24 attribute types) to a pooled buffer, released after. */
    @Benchmark
    public int encodeSearchResultEntry() throws Exception {
        return encode(entry);
    }

    /**
     * The same person as a search builds it ({@link ResultEntries#build}: every user attribute, an
     * administrator's screen) and the encoder writes it from the stored values: the per-entry cost of
     * a large or paged search between the stored entry and the socket.
     */
    @Benchmark
    public int buildAndEncodeResultEntry() throws Exception {
        return encode(results.build(3, stored, everyUserAttribute, false, EntryScreen.ALL, null));
    }

    /** A successful SearchResultDone to a pooled buffer, released after. */
    @Benchmark
    public int encodeSearchResultDone() throws Exception {
        return encode(done);
    }

    private int encode(Message message) throws Exception {
        ByteBuf pdu = encoder.encode(alloc, message);
        int n = pdu.readableBytes();
        pdu.release();
        return n;
    }

    /**
     * A result entry shaped as the search handler shapes it: every attribute under its user name, the
     * stored values as they are, written by the encoder straight from them.
     */
    private static SearchResultEntry resultEntry(int messageId, StoredEntry stored) {
        SelectedEntry response = new SelectedEntry(messageId, stored.dn());
        for (StoredAttribute a : stored.attributes()) {
            response.add(a.userId(), a.values());
        }
        return response;
    }
}
