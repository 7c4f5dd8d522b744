package dev.larch.server.cli;

import java.nio.file.Files;
import java.util.concurrent.Callable;

import dev.larch.config.LarchConfig;
import dev.larch.schema.LarchSchema;
import dev.larch.server.StoredDirectory;
import dev.larch.server.maintenance.StoreVerifier;
import dev.larch.server.maintenance.VerifyReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code ./larch verify}: entries against the DN tree and indexes; exit 1 on any disagreement. */
@Command(
        name = "verify",
        mixinStandardHelpOptions = true,
        description = "Check the store: entries, the DN tree, parent links and every index agree"
                + " (exit 1 on any disagreement).")
final class VerifyCommand implements Callable<Integer> {
    @Mixin
    ConfigOptions options;

    @Override
    public Integer call() throws Exception {
        LarchConfig config = options.load();
        if (!Files.isDirectory(config.storage().dataDir())) {
            System.err.println(
                    "larch: verify: no data directory at " + config.storage().dataDir());
            return 2;
        }
        var schema = LarchSchema.load(config.schemaFiles());
        long start = System.nanoTime();
        try (StoredDirectory open = StoredDirectory.openReadOnly(config, schema, false)) {
            VerifyReport report = new StoreVerifier(
                            open.directory(),
                            System.err,
                            config.storage().importSortMemoryBytes(),
                            Runtime.getRuntime().availableProcessors())
                    .verify();
            report.listed().forEach(problem -> System.out.println("disagrees: " + problem));
            if (report.problems() > report.listed().size()) {
                System.out.printf(
                        "... and %,d more%n",
                        report.problems() - report.listed().size());
            }
            System.out.printf(
                    "Verified %,d entries, %,d index records and %,d change log records in %.1f s: %s%n",
                    report.entries(),
                    report.indexRecords(),
                    report.changes(),
                    (System.nanoTime() - start) / 1e9,
                    report.clean() ? "clean" : report.problems() + " disagreements");
            return report.clean() ? 0 : 1;
        }
    }
}
