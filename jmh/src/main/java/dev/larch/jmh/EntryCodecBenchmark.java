package dev.larch.jmh;

import java.nio.ByteBuffer;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import dev.larch.jmh.data.SampleEntries;
import dev.larch.schema.LarchSchema;
import dev.larch.server.directory.SchemaNormalizer;
import dev.larch.server.entry.EntryCodec;
import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import org.apache.directory.api.ldap.model.entry.Entry;
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
import org.openjdk.jmh.annotations.Warmup;

/** The stored entry format: one dbgen-shaped inetOrgPerson (24 attribute types), written and read back. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {Jvm.OPEN_NIO, Jvm.OPEN_NIO_CH, Jvm.NATIVE_ACCESS, Jvm.HEAP_MIN, Jvm.HEAP_MAX, Jvm.PRE_TOUCH})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class EntryCodecBenchmark {
    private static final Set<String> MESSAGING_ANSWER = Set.of("cn", "mail", "uid");

    /** The OIDs of {@link #MESSAGING_ANSWER}: cn, mail, uid. */
    private static final Set<String> MESSAGING_ANSWER_OIDS =
            Set.of("2.5.4.3", "0.9.2342.19200300.100.1.3", "0.9.2342.19200300.100.1.1");

    private Entry entry;
    private ByteBuffer serialized;
    private EntryCodec codec;
    private String parentDn;

    @Setup(Level.Trial)
    public void setUp() {
        SchemaNormalizer schemaNormalizer = new SchemaNormalizer(LarchSchema.standard());
        entry = SampleEntries.schemaAware(schemaNormalizer);
        serialized = SampleEntries.serialized(schemaNormalizer);
        codec = SampleEntries.codec(schemaNormalizer);
        parentDn = SampleEntries.parentDn(schemaNormalizer);
        if (decodeInPlaceAndSelectThree() != deserializeAndReadThree()) {
            throw new IllegalStateException("benchmark set-up: picking by OID and by name found different values");
        }
    }

    /** Schema-aware entry to bytes, as every add, modify and rename writes it. */
    @Benchmark
    public byte[] serializeEntry() {
        return codec.encode(SampleEntries.PARENT_ID, entry);
    }

    /** Bytes (a direct buffer, as LMDB returns them) to a stored entry, as every search candidate is read. */
    @Benchmark
    public StoredEntry deserializeEntry() {
        return codec.decode(SampleEntries.ID, serialized, parentDn);
    }

    /**
     * Bytes to a stored entry, then the values of the three attributes a messaging search asks for
     * (cn, mail, uid), as a search reads a candidate it returns.
     */
    @Benchmark
    public int deserializeAndReadThree() {
        StoredEntry stored = codec.decode(SampleEntries.ID, serialized, parentDn);
        int n = 0;
        for (StoredAttribute a : stored.attributes()) {
            if (MESSAGING_ANSWER.contains(a.userId())) {
                n += a.values().length;
            }
        }
        return n;
    }

    /**
     * Bytes to a stored entry read in place (a search candidate in its read transaction's memory),
     * then the values of cn, mail and uid picked as a search's result writer picks them: by each
     * attribute's OID, making only those three.
     */
    @Benchmark
    public int decodeInPlaceAndSelectThree() {
        StoredEntry stored = codec.decodeInPlace(SampleEntries.ID, serialized, parentDn, EntryCodecBenchmark::open);
        int n = 0;
        for (int i = 0, size = stored.attributes().size(); i < size; i++) {
            if (MESSAGING_ANSWER_OIDS.contains(stored.oidAt(i))) {
                n += stored.attributes().get(i).values().length;
            }
        }
        return n;
    }

    /** The benchmark's buffer is never released: always readable. */
    private static boolean open() {
        return true;
    }
}
