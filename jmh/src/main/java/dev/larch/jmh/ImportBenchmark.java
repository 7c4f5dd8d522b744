package dev.larch.jmh;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.larch.config.LarchConfig;
import dev.larch.jmh.data.People;
import dev.larch.schema.LarchSchema;
import dev.larch.server.StoredDirectory;
import dev.larch.server.ldif.LdifImporter;
import org.apache.directory.api.ldap.model.entry.DefaultEntry;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.ldif.LdifUtils;
import org.apache.directory.api.ldap.model.schema.SchemaManager;
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
 * {@code ./larch import} of a batch of {@code entries} people (the dbgen shape, {@link People})
 * into a new data directory with the default indexes, as {@link LdifImporter} runs it: parse,
 * schema check, entries, indexes, the memberOf pass and the final sync. One invocation is one whole
 * import (single-shot time, seconds); each starts from an empty directory, deleted afterwards.
 *
 * <p>{@code sortMemory} chooses the path: the default ({@code storage.import-sort-memory}) takes
 * the bulk path into the empty store (entries appended, indexes filled from sorted runs); {@code 0}
 * the ordinary path, each entry's index records put as it is written, as before the bulk path.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {Jvm.OPEN_NIO, Jvm.OPEN_NIO_CH, Jvm.NATIVE_ACCESS, Jvm.HEAP_MIN, Jvm.HEAP_MAX, Jvm.PRE_TOUCH})
@Warmup(iterations = 1)
@Measurement(iterations = 3)
public class ImportBenchmark {
    @Param("100000")
    public int entries;

    /** Bytes of index records held in memory: {@code default} (bulk path) or 0 (the ordinary path). */
    @Param({"default", "0"})
    public String sortMemory;

    private Path ldif;
    private Path dir;
    private StoredDirectory open;
    private LdifImporter importer;
    private final SchemaManager schema = LarchSchema.standard();

    @Setup(Level.Trial)
    public void writeLdif() throws IOException, LdapException {
        ldif = Files.createTempFile("larch-jmh-import-", ".ldif");
        int units = (entries + People.PER_UNIT - 1) / People.PER_UNIT;
        try (BufferedWriter out = Files.newBufferedWriter(ldif, StandardCharsets.UTF_8)) {
            write(
                    out,
                    new DefaultEntry(
                            People.SUFFIX,
                            "objectClass: top",
                            "objectClass: dcObject",
                            "objectClass: organization",
                            "dc: example",
                            "o: Example"));
            write(out, People.unit(People.PEOPLE, "people"));
            for (int u = 0; u < units; u++) {
                write(out, People.unit(People.unitDn(u), People.unitName(u)));
            }
            for (int i = 0; i < entries; i++) {
                write(out, People.person(i));
            }
        }
    }

    private static void write(BufferedWriter out, Entry entry) throws IOException, LdapException {
        out.write(LdifUtils.convertToLdif(entry));
        out.write('\n');
    }

    @Setup(Level.Invocation)
    public void openEmptyStore() throws IOException {
        dir = Files.createTempDirectory("larch-jmh-import-store-");
        LarchConfig config = LarchConfig.defaults().withDataDir(dir);
        open = StoredDirectory.open(config, schema, false);
        importer = new LdifImporter(
                open,
                config.storage().importBatchEntries(),
                config.limits().indexEntryLimit(),
                sortMemory.equals("default") ? config.storage().importSortMemoryBytes() : Long.parseLong(sortMemory));
    }

    @Benchmark
    public long importBatch() throws IOException {
        return importer.importFile(ldif, n -> {}).entries();
    }

    @TearDown(Level.Invocation)
    public void deleteStore() throws IOException {
        open.close();
        delete(dir);
    }

    @TearDown(Level.Trial)
    public void deleteLdif() throws IOException {
        Files.deleteIfExists(ldif);
    }

    private static void delete(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
