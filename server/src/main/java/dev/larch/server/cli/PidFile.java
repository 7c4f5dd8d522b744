package dev.larch.server.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.OptionalLong;

import dev.larch.server.store.OwnerOnlyFiles;

/**
 * {@code <data>/larch.pid}: the process ID of the server serving that data directory, written once it
 * listens and removed when it stops, so that {@code ./larch reload} signals the server and never an
 * import (whose PID the lock file records too). A file left by a crash is recognised as stale because
 * the data directory's lock is then free.
 */
final class PidFile {
    static final String NAME = "larch.pid";

    private PidFile() {}

    static void write(Path dataDir) throws IOException {
        Path file = dataDir.resolve(NAME);
        Path temporary = dataDir.resolve(NAME + ".new");
        Files.deleteIfExists(temporary);
        Files.createFile(temporary, OwnerOnlyFiles.fileAttributes(dataDir));
        Files.writeString(temporary, ProcessHandle.current().pid() + "\n", StandardCharsets.UTF_8);
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Removes the file if it names this process. */
    static void remove(Path dataDir) {
        Path file = dataDir.resolve(NAME);
        if (read(dataDir).orElse(-1) == ProcessHandle.current().pid()) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // Harmless: a stale file is recognised by the free lock.
            }
        }
    }

    /** The recorded process ID, if the file exists and holds one. */
    static OptionalLong read(Path dataDir) {
        try {
            return OptionalLong.of(Long.parseLong(Files.readString(dataDir.resolve(NAME), StandardCharsets.UTF_8)
                    .strip()));
        } catch (IOException | NumberFormatException e) {
            return OptionalLong.empty();
        }
    }
}
