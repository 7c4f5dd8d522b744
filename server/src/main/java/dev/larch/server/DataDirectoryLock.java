package dev.larch.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;

import dev.larch.server.store.OwnerOnlyFiles;

/**
 * An exclusive OS lock on {@code <data>/larch.lock}, held by a running server or an import so
 * that two writers never share one data directory. The lock dies with the process, so a crash
 * leaves nothing to clean up; the file records the holder's PID for the error message.
 */
public final class DataDirectoryLock implements AutoCloseable {
    private final FileChannel channel;
    private final FileLock lock;

    private DataDirectoryLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * @param purpose what the caller is about to do, for the error message
     * @throws IllegalStateException naming the directory and holder when another process has it
     */
    public static DataDirectoryLock acquire(Path dataDir, String purpose) throws IOException {
        OwnerOnlyFiles.createDirectory(dataDir);
        Path file = dataDir.resolve("larch.lock");
        FileChannel channel = FileChannel.open(
                file,
                Set.of(StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE),
                OwnerOnlyFiles.fileAttributes(dataDir));
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null; // held by this very JVM (a server and a restore in one process, as tests run them)
        }
        if (lock == null) {
            String holder = new String(Files.readAllBytes(file), StandardCharsets.UTF_8).trim();
            channel.close();
            throw new IllegalStateException("cannot " + purpose + ": data directory " + dataDir
                    + " is in use by another Larch process" + (holder.isEmpty() ? "" : " (pid " + holder + ")")
                    + "; stop it first");
        }
        channel.truncate(0);
        channel.write(
                ByteBuffer.wrap(Long.toString(ProcessHandle.current().pid()).getBytes(StandardCharsets.UTF_8)));
        channel.force(false);
        return new DataDirectoryLock(channel, lock);
    }

    @Override
    public void close() throws IOException {
        lock.release();
        channel.close();
    }
}
