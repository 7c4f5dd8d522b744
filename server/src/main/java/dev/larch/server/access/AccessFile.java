package dev.larch.server.access;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * The global rules of {@code access.file}: ACIs that live on no entry (they cover the root DSE and
 * {@code cn=Subschema} too) and form the base every directory ACI adds to.
 *
 * <p>Format: one ACI per line in UTF-8; a line starting with white space continues the one before it
 * (joined with one space), as LDIF folds lines; blank lines and lines starting with {@code #} are
 * skipped. A global ACI without {@code target} reaches every entry. Without a file the built-in rules
 * apply, the same text as the shipped {@code config/access.aci}.
 */
public final class AccessFile {
    /** The built-in rules, on the class path. */
    static final String BUILT_IN = "default.aci";
    /** Bounds what a mistaken path (a large binary file) could make the server hold. */
    static final long MAX_BYTES = 1 << 20;

    private AccessFile() {}

    /**
     * Parses the rules of {@code file}, or the built-in rules when it is null.
     *
     * @throws IOException one line naming the key, the file and the line of the first problem
     */
    public static List<Aci> load(Path file, AciParser parser) throws IOException {
        if (file == null) {
            return parse(builtIn(), "built-in " + BUILT_IN, parser);
        }
        String text;
        try {
            if (Files.size(file) > MAX_BYTES) {
                throw new IOException("access.file: " + file + ": larger than " + MAX_BYTES + " bytes");
            }
            text = Files.readString(file, UTF_8);
        } catch (NoSuchFileException e) {
            throw new IOException("access.file: " + file + ": file not found", e);
        } catch (IOException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("access.file:")) {
                throw e;
            }
            throw new IOException("access.file: " + file + ": cannot read: " + e, e);
        }
        return parse(text, file.toString(), parser);
    }

    /** The built-in rules' text. */
    public static String builtIn() {
        try (InputStream in = AccessFile.class.getResourceAsStream(BUILT_IN)) {
            if (in == null) {
                throw new IllegalStateException(BUILT_IN + " missing from the class path");
            }
            return new String(in.readAllBytes(), UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + BUILT_IN, e);
        }
    }

    static List<Aci> parse(String text, String source, AciParser parser) throws IOException {
        List<Aci> rules = new ArrayList<>();
        String[] lines = text.split("\r?\n", -1);
        StringBuilder current = null;
        int startLine = 0;
        for (int i = 0; i <= lines.length; i++) {
            String line = i < lines.length ? lines[i] : "";
            boolean continuation = i < lines.length
                    && !line.isEmpty()
                    && Character.isWhitespace(line.charAt(0))
                    && current != null
                    && !line.isBlank();
            if (continuation) {
                current.append(' ').append(line.strip());
                continue;
            }
            if (current != null) {
                try {
                    rules.add(parser.parseLenient(current.toString()));
                } catch (AciSyntaxException e) {
                    throw new IOException("access.file: " + source + ":" + startLine + ": " + e.getMessage(), e);
                }
                current = null;
            }
            if (i < lines.length && !line.isBlank() && !line.stripLeading().startsWith("#")) {
                current = new StringBuilder(line.strip());
                startLine = i + 1;
            }
        }
        return rules;
    }
}
