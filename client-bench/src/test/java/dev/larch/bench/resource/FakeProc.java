package dev.larch.bench.resource;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A /proc made of test text: path to content; the content {@code DENIED} reads as a file the process
 * may not read; a path that is absent does not exist. Directories are the prefixes of the paths.
 */
public final class FakeProc implements ProcSource {
    public static final String DENIED = "DENIED";

    private final Function<String, String> files;
    private final Map<String, String> listed;

    private FakeProc(Function<String, String> files, Map<String, String> listed) {
        this.files = files;
        this.listed = listed;
    }

    public static FakeProc of(Map<String, String> files) {
        return new FakeProc(files::get, files);
    }

    /** Each read asks {@code files}, so a test can change the answers between readings. */
    public static FakeProc dynamic(Function<String, String> files) {
        return new FakeProc(files, Map.of());
    }

    @Override
    public String read(String relative) throws IOException {
        String text = files.apply(relative);
        if (text == null) {
            throw new NoSuchFileException(relative);
        }
        if (text.equals(DENIED)) {
            throw new AccessDeniedException(relative);
        }
        return text;
    }

    @Override
    public List<String> list(String relative) throws IOException {
        String prefix = relative + "/";
        List<String> names = listed.keySet().stream()
                .filter(k -> k.startsWith(prefix))
                .map(k -> k.substring(prefix.length()).split("/")[0])
                .distinct()
                .sorted()
                .toList();
        if (names.isEmpty()) {
            throw new NoSuchFileException(relative);
        }
        return names;
    }
}
