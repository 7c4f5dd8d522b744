package dev.larch.server.cli;

import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import dev.larch.config.LarchConfig;
import dev.larch.schema.LarchSchema;
import dev.larch.server.StoredDirectory;
import dev.larch.server.ldif.LdifExporter;
import dev.larch.server.store.OwnerOnlyFiles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code ./larch export [FILE]}: the tree as LDIF (to standard output without FILE). */
@Command(name = "export", mixinStandardHelpOptions = true, description = "Write the directory as LDIF.")
final class ExportCommand implements Callable<Integer> {
    @Mixin
    ConfigOptions options;

    @Parameters(paramLabel = "FILE", arity = "0..1", description = "output file (default: standard output)")
    Path file;

    @Override
    public Integer call() throws Exception {
        LarchConfig config = options.load();
        if (!Files.isDirectory(config.storage().dataDir())) {
            System.err.println(
                    "larch: export: no data directory at " + config.storage().dataDir());
            return 2;
        }
        var schema = LarchSchema.load(config.schemaFiles());
        // Read-only, and without the data-directory lock: LMDB readers share the store with a running
        // server, and an export changes nothing (no index is built or dropped whatever the config says).
        try (StoredDirectory open = StoredDirectory.openReadOnly(config, schema, false)) {
            long n;
            if (file == null) {
                // Standard output stays open (it is the JVM's, not ours): flush, never close.
                Writer out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
                n = new LdifExporter(open).export(out);
                out.flush();
            } else {
                // Exports hold password hashes: owner-only, whatever the umask.
                try (Writer out = new BufferedWriter(
                        new OutputStreamWriter(OwnerOnlyFiles.newOutputStream(file), StandardCharsets.UTF_8))) {
                    n = new LdifExporter(open).export(out);
                }
            }
            System.err.printf("larch: exported %,d entries%n", n);
            return 0;
        }
    }
}
