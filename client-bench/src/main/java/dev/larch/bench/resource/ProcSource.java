package dev.larch.bench.resource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where {@code /proc} text comes from: the real file system, or a test's own text.
 *
 * <p>Implementations throw {@link java.nio.file.NoSuchFileException} for a missing file and
 * {@link java.nio.file.AccessDeniedException} for one the process may not read.
 */
public interface ProcSource {
    /** The text of {@code relative} (e.g. {@code "stat"}, {@code "1234/io"}) below the proc root. */
    String read(String relative) throws IOException;

    /** The names in directory {@code relative} (e.g. {@code "1234/task"}). */
    List<String> list(String relative) throws IOException;

    /** The files below {@code root} (normally {@code /proc}). */
    static ProcSource of(Path root) {
        return new ProcSource() {
            @Override
            public String read(String relative) throws IOException {
                return Files.readString(root.resolve(relative), StandardCharsets.US_ASCII);
            }

            @Override
            public List<String> list(String relative) throws IOException {
                try (Stream<Path> names = Files.list(root.resolve(relative))) {
                    return names.map(p -> p.getFileName().toString()).toList();
                }
            }
        };
    }

    /** The real {@code /proc}. */
    static ProcSource system() {
        return of(Path.of("/proc"));
    }
}
