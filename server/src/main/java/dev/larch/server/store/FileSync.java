package dev.larch.server.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes files and renames durable: a file written is on disk once synced, and a file created or
 * renamed into a directory survives a crash only once the directory itself is synced too.
 */
public final class FileSync {
    private static final Logger LOG = LoggerFactory.getLogger(FileSync.class);

    private FileSync() {}

    /** Syncs the contents and metadata of the regular file {@code file}. */
    public static void file(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.force(true);
        }
    }

    /**
     * Syncs the directory {@code dir}. Opening a directory for reading and forcing it works on Linux
     * and macOS; other platforms refuse, and there a rename is as durable as the file system makes it.
     */
    public static void directory(Path dir) {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            LOG.debug("cannot sync directory {}: {}", dir, e.toString());
        }
    }
}
