package dev.larch.bench.cli;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.concurrent.Callable;

import dev.larch.bench.gen.DataGenerator;
import dev.larch.bench.gen.GenOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./larch gen}: writes a deterministic DirectoryMark-shaped LDIF file. */
@Command(
        name = "gen",
        mixinStandardHelpOptions = true,
        description = "Generate DirectoryMark-shaped (dbgen) inetOrgPerson data as LDIF.")
final class GenCommand implements Callable<Integer> {
    @Option(names = "--entries", required = true, description = "Number of people (groups and ous come on top).")
    long entries;

    @Option(
            names = "--seed",
            defaultValue = "1",
            description = "Seed; same seed and size give the same bytes (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--out", required = true, description = "LDIF file to write.")
    Path out;

    @Option(
            names = "--suffix",
            defaultValue = GenOptions.DEFAULT_SUFFIX,
            description = "Naming context (default ${DEFAULT-VALUE}).")
    String suffix;

    @Option(
            names = "--name-skew",
            defaultValue = "0.7",
            description = "Zipf exponent of name frequency, 0 = uniform (default ${DEFAULT-VALUE}).")
    double nameSkew;

    @Option(
            names = "--group-size",
            defaultValue = "100",
            description = "People per groupOfNames (default ${DEFAULT-VALUE}).")
    int groupSize;

    @Override
    public Integer call() throws IOException {
        GenOptions options = new GenOptions(entries, seed, suffix, nameSkew, groupSize);
        Path parent = out.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            throw new BadInputException("output directory does not exist: " + parent);
        }
        long start = System.nanoTime();
        DataGenerator.Summary summary;
        Path tmp = out.resolveSibling(out.getFileName() + ".partial");
        try (OutputStream os = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 20)) {
            summary = new DataGenerator(options).write(os);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
        // Renamed only when complete, so a failed run never leaves a truncated file under the real name.
        Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING);
        double seconds = (System.nanoTime() - start) / 1e9;
        System.err.printf(
                Locale.ROOT,
                "gen: %d people, %d groups, %d entries, %.1f MB in %.1f s -> %s%n",
                summary.people(),
                summary.groups(),
                summary.entries(),
                summary.bytes() / 1e6,
                seconds,
                out);
        return 0;
    }
}
