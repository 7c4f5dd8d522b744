package dev.larch.server.ldif;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * What an import does with a value given by URL ({@code attr:< file:///path}, RFC 2849): by default
 * refuses it, because an LDIF from a third party could otherwise copy any file the importing user can
 * read (a key, a config file) into a readable attribute. An operator who means it names one directory;
 * then only regular files inside it (after following links) are read, up to {@link #MAX_FILE_BYTES}.
 * Immutable and thread-safe.
 */
public final class UrlValues {
    /** The largest file a value may come from. */
    static final long MAX_FILE_BYTES = 16L << 20;

    /** Refuses every URL value. */
    public static final UrlValues REFUSED = new UrlValues(null);

    /** The directory's real path, or null when every URL value is refused. */
    private final Path allowed;

    private UrlValues(Path allowed) {
        this.allowed = allowed;
    }

    /**
     * Reads {@code file:} URL values from regular files under {@code directory} only.
     *
     * @throws IOException when the directory does not exist or is not a directory
     */
    public static UrlValues under(Path directory) throws IOException {
        Path real = directory.toRealPath();
        if (!Files.isDirectory(real)) {
            throw new IOException(directory + " is not a directory");
        }
        return new UrlValues(real);
    }

    /**
     * The bytes the URL names.
     *
     * @throws IllegalArgumentException with a message for the user when the value is refused or
     *     cannot be read
     */
    byte[] read(String attribute, String url) {
        if (allowed == null) {
            throw new IllegalArgumentException("attribute " + attribute + " takes its value from the URL " + url
                    + "; URL values are refused unless --allow-url-values DIR names the directory that holds the file");
        }
        Path file = resolve(attribute, url);
        try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
            byte[] data = in.readNBytes((int) MAX_FILE_BYTES + 1);
            if (data.length > MAX_FILE_BYTES) {
                throw new IllegalArgumentException(
                        "attribute " + attribute + ": " + url + " is larger than " + MAX_FILE_BYTES + " bytes");
            }
            return data;
        } catch (IOException e) {
            throw new IllegalArgumentException("attribute " + attribute + ": cannot read " + url + " (" + e + ")");
        }
    }

    private Path resolve(String attribute, String url) {
        Path file;
        try {
            URI uri = new URI(url);
            if (!"file".equalsIgnoreCase(uri.getScheme()) || uri.getPath() == null || uri.getAuthority() != null) {
                throw new IllegalArgumentException(
                        "attribute " + attribute + ": only file:///path URLs are supported, not " + url);
            }
            file = Path.of(uri.getPath()).toRealPath();
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("attribute " + attribute + ": malformed URL " + url);
        } catch (IOException e) {
            throw new IllegalArgumentException("attribute " + attribute + ": no file at " + url);
        }
        if (!file.startsWith(allowed) || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new IllegalArgumentException("attribute " + attribute + ": " + url
                    + " is not a regular file under the allowed directory " + allowed);
        }
        return file;
    }
}
