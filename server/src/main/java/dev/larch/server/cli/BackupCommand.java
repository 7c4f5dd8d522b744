package dev.larch.server.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;

import dev.larch.config.LarchConfig;
import dev.larch.schema.LarchSchema;
import dev.larch.server.StoredDirectory;
import dev.larch.server.Version;
import dev.larch.server.maintenance.Backup;
import dev.larch.server.maintenance.BackupManifest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code ./larch backup OUT}: a consistent compacted copy of the store, while the server runs or not. */
@Command(
        name = "backup",
        mixinStandardHelpOptions = true,
        description = "Copy the store, consistent and compacted, into a new directory OUT (the server may be running).")
final class BackupCommand implements Callable<Integer> {
    @Mixin
    ConfigOptions options;

    @Parameters(paramLabel = "OUT", description = "directory to create for the backup; must not exist")
    Path out;

    @Override
    public Integer call() throws Exception {
        LarchConfig config = options.load();
        var schema = LarchSchema.load(config.schemaFiles());
        long start = System.nanoTime();
        // Read-only, and without the data-directory lock: LMDB readers share the store with a running server.
        try (StoredDirectory open = StoredDirectory.openReadOnly(config, schema, false)) {
            BackupManifest manifest = Backup.take(config, open, out, Version.get(), System.err);
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf(
                    "Backed up %,d entries to %s in %.1f s: %,d bytes (store file %,d bytes)%n",
                    manifest.entries(),
                    out,
                    seconds,
                    manifest.bytes(),
                    open.store().sizeOnDisk());
            return 0;
        }
    }
}
