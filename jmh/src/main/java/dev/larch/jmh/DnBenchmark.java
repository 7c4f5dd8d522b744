package dev.larch.jmh;

import java.util.concurrent.TimeUnit;

import dev.larch.schema.LarchSchema;
import dev.larch.server.directory.SchemaNormalizer;
import org.apache.directory.api.ldap.model.exception.LdapInvalidDnException;
import org.apache.directory.api.ldap.model.name.Dn;
import org.apache.directory.api.ldap.model.schema.SchemaManager;
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
 * DN parsing with schema-aware normalization, as every request's base or entry name needs it:
 * attribute types resolved, values normalized by their equality rule. {@link SchemaNormalizer#dn(String)}
 * keeps recently parsed DNs, so the parse benchmarks call the parser itself (what a cache miss
 * costs) and {@link #cachedDn()} measures the hit that repeated search bases get.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {Jvm.OPEN_NIO, Jvm.OPEN_NIO_CH, Jvm.NATIVE_ACCESS, Jvm.HEAP_MIN, Jvm.HEAP_MAX, Jvm.PRE_TOUCH})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class DnBenchmark {

    /** Already in normal form: lower case, no extra spaces. */
    private static final String PLAIN = "uid=user012345,ou=unit012,ou=people,dc=example,dc=com";
    /** As clients often write it: mixed case, spaces after commas, a short name for the type. */
    private static final String MIXED = "UID=User012345, OU=Unit012, OU=People, DC=Example, DC=COM";

    private SchemaNormalizer schemaNormalizer;
    private SchemaManager schema;

    @Setup(Level.Trial)
    public void setUp() {
        schema = LarchSchema.standard();
        schemaNormalizer = new SchemaNormalizer(schema);
        if (!schemaNormalizer.dn(PLAIN).equals(schemaNormalizer.dn(MIXED))) {
            throw new IllegalStateException("benchmark set-up: the two DNs should normalize alike");
        }
    }

    @Benchmark
    public Dn parseNormalizedDn() throws LdapInvalidDnException {
        return new Dn(schema, PLAIN);
    }

    @Benchmark
    public Dn parseMixedCaseDn() throws LdapInvalidDnException {
        return new Dn(schema, MIXED);
    }

    @Benchmark
    public Dn cachedDn() {
        return schemaNormalizer.dn(MIXED);
    }
}
