package dev.larch.jmh;

import java.text.ParseException;
import java.util.concurrent.TimeUnit;

import dev.larch.jmh.data.SampleEntries;
import dev.larch.schema.LarchSchema;
import dev.larch.server.directory.SchemaNormalizer;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.search.Filter;
import dev.larch.server.search.FilterCompiler;
import dev.larch.server.search.Tri;
import org.apache.directory.api.ldap.model.filter.FilterParser;
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

/**
 * Compiled filters checked against one stored inetOrgPerson, the final verification every search
 * candidate gets. Each filter matches, so evaluation runs to the end rather than stopping early.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {Jvm.OPEN_NIO, Jvm.OPEN_NIO_CH, Jvm.NATIVE_ACCESS, Jvm.HEAP_MIN, Jvm.HEAP_MAX, Jvm.PRE_TOUCH})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class FilterBenchmark {

    private StoredEntry entry;
    private Filter equality;
    private Filter substring;
    private Filter compound;

    @Setup(Level.Trial)
    public void setUp() throws ParseException {
        SchemaNormalizer schemaNormalizer = new SchemaNormalizer(LarchSchema.standard());
        FilterCompiler compiler = new FilterCompiler(schemaNormalizer.schema());
        entry = SampleEntries.stored(schemaNormalizer);
        equality = compiler.compile(FilterParser.parse("(uid=USER012345)"));
        substring = compiler.compile(FilterParser.parse("(cn=*eliss*orres)"));
        compound = compiler.compile(
                FilterParser.parse(
                        "(&(objectClass=inetOrgPerson)(|(mail=nobody@example.com)(sn=Torres))(!(title=Clerk))(givenName=Mel*))"));
        for (Filter f : new Filter[] {equality, substring, compound}) {
            if (f.evaluate(entry) != Tri.TRUE) {
                throw new IllegalStateException("benchmark set-up: " + f + " should match " + entry.dn());
            }
        }
    }

    /** {@code (uid=USER012345)}: caseIgnore equality on a single-valued attribute. */
    @Benchmark
    public Tri evaluateEquality() {
        return equality.evaluate(entry);
    }

    /** {@code (cn=*eliss*orres)}: any and final pieces. */
    @Benchmark
    public Tri evaluateSubstring() {
        return substring.evaluate(entry);
    }

    /** AND of equality on a multi-valued attribute, an OR, a NOT and an initial substring. */
    @Benchmark
    public Tri evaluateCompound() {
        return compound.evaluate(entry);
    }
}
