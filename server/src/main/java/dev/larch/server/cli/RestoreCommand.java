package dev.larch.server.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;

import dev.larch.config.LarchConfig;
import dev.larch.schema.LarchSchema;
import dev.larch.server.maintenance.BackupManifest;
import dev.larch.server.maintenance.Restore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code ./larch restore BACKUP --data DIR}: checks a backup, then makes it the data directory's store. */
@Command(
        name = "restore",
        mixinStandardHelpOptions = true,
        description = "Check a backup made by 'larch backup' and make it the store of the data directory"
                + " (refused while a server uses it).")
final class RestoreCommand implements Callable<Integer> {
    @Mixin
    ConfigOptions options;

    @Parameters(paramLabel = "BACKUP", description = "backup directory written by 'larch backup'")
    Path backup;

    @Override
    public Integer call() throws Exception {
        LarchConfig config = options.load();
        var schema = LarchSchema.load(config.schemaFiles());
        long start = System.nanoTime();
        BackupManifest manifest = Restore.run(config, schema, backup, System.err);
        System.out.printf(
                "Restored %,d entries (backup of %s) into %s in %.1f s%n",
                manifest.entries(), manifest.created(), config.storage().dataDir(), (System.nanoTime() - start) / 1e9);
        return 0;
    }
}
