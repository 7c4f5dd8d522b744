package dev.larch.server.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import dev.larch.config.LarchConfig;
import dev.larch.schema.LarchSchema;
import dev.larch.server.DataDirectoryLock;
import dev.larch.server.Progress;
import dev.larch.server.StoredDirectory;
import dev.larch.server.ldif.LdifImporter;
import dev.larch.server.ldif.UrlValues;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code ./larch import FILE.ldif}: offline bulk load; refuses while a server holds the data. */
@Command(
        name = "import",
        mixinStandardHelpOptions = true,
        description = "Bulk-load LDIF into the data directory (offline).")
final class ImportCommand implements Callable<Integer> {
    @Mixin
    ConfigOptions options;

    @Parameters(paramLabel = "FILE.ldif", description = "LDIF file of entries, parents before children")
    Path file;

    @Option(
            names = "--allow-url-values",
            paramLabel = "DIR",
            description = "read values given by URL (attr:< file:///...) from regular files under DIR;"
                    + " without it such values are refused")
    Path urlValueDirectory;

    @Override
    @SuppressWarnings("try") // the data-directory lock is held for the import's duration, never read
    public Integer call() throws Exception {
        if (!Files.isReadable(file)) {
            System.err.println("larch: import: cannot read " + file);
            return 2;
        }
        UrlValues urlValues = UrlValues.REFUSED;
        if (urlValueDirectory != null) {
            try {
                urlValues = UrlValues.under(urlValueDirectory);
            } catch (IOException e) {
                System.err.println("larch: import: --allow-url-values: " + urlValueDirectory
                        + " is not a directory that can be read (" + e.getMessage() + ")");
                return 2;
            }
        }
        LarchConfig config = options.load();
        var schema = LarchSchema.load(config.schemaFiles());
        try (DataDirectoryLock lock = DataDirectoryLock.acquire(config.storage().dataDir(), "import");
                StoredDirectory open = StoredDirectory.open(config, schema, false)) {
            LdifImporter importer = new LdifImporter(
                            open,
                            config.storage().importBatchEntries(),
                            config.limits().indexEntryLimit(),
                            sortMemory(config.storage().importSortMemoryBytes()))
                    .urlValues(urlValues);
            LdifImporter.Result result;
            Progress progress = Progress.onStandardError("imported entries", LdifImporter.countEntries(file));
            try {
                result = importer.importFile(file, progress::advanceTo);
            } catch (LdifImporter.ImportException e) {
                progress.finish();
                System.err.println("larch: import stopped: " + e.getMessage());
                return 1;
            }
            progress.finish();
            System.err.printf("larch: memberOf computed for %,d entries%n", result.withMemberOf());
            System.out.printf(
                    "Imported %,d entries in %.1f s (%,.0f entries/s); data file %,d bytes%n",
                    result.entries(),
                    result.elapsed().toMillis() / 1000.0,
                    result.entriesPerSecond(),
                    open.store().sizeOnDisk());
            return 0;
        }
    }

    /** Below this a bulk import would spill almost at once: smaller settings (but 0) are raised to it. */
    static final long MIN_SORT_MEMORY = 16L << 20;

    private static long sortMemory(long configured) {
        return configured == 0 ? 0 : Math.max(MIN_SORT_MEMORY, configured);
    }
}
