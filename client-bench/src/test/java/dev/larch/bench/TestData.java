package dev.larch.bench;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.larch.bench.gen.DataGenerator;
import dev.larch.bench.gen.GenOptions;

/** Generated data files for tests. */
public final class TestData {
    private TestData() {}

    /** Writes {@code people} generated people (seed 1, default suffix) to {@code file}. */
    public static Path ldif(Path file, long people) throws IOException {
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file))) {
            new DataGenerator(new GenOptions(
                            people,
                            1,
                            GenOptions.DEFAULT_SUFFIX,
                            GenOptions.DEFAULT_SKEW,
                            GenOptions.DEFAULT_GROUP_SIZE))
                    .write(out);
        }
        return file;
    }
}
