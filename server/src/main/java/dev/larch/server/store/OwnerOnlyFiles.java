package dev.larch.server.store;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the files that hold directory data (the LMDB store, the admin password file, the lock file,
 * LDIF exports) readable by their owner alone, whatever the umask: directories 0700, files 0600.
 * Hashed passwords are in them, and a hash that others can read can be guessed offline.
 *
 * <p>On a file system without POSIX permissions (Windows, some mounts) every method does what it
 * can without them and says nothing: access there is the platform's ACLs' business. Stateless and
 * thread-safe.
 */
public final class OwnerOnlyFiles {
    private static final Logger LOG = LoggerFactory.getLogger(OwnerOnlyFiles.class);

    /** 0600 as an LMDB {@code mode_t} for {@code Env.open}. */
    public static final int FILE_MODE = 0600;

    private static final Set<PosixFilePermission> FILE =
            EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
    private static final Set<PosixFilePermission> DIRECTORY = EnumSet.of(
            PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE);

    private OwnerOnlyFiles() {}

    /** Creates {@code dir} (and missing parents) with the last one 0700; an existing one is left as it is. */
    public static void createDirectory(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            return;
        }
        Path parent = dir.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try {
            Files.createDirectory(dir, attributes(parent, DIRECTORY));
        } catch (FileAlreadyExistsException e) {
            // Created meanwhile by someone else; tighten() puts its mode right.
        }
    }

    /** The attribute that creates a file 0600, or none where the file system has no POSIX permissions. */
    public static FileAttribute<?>[] fileAttributes(Path dir) {
        return attributes(dir, FILE);
    }

    /**
     * Opens {@code file} for writing from its start, created 0600; an existing file is made 0600
     * before anything is written to it, then truncated.
     */
    public static OutputStream newOutputStream(Path file) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        if (Files.exists(file) && isPosix(file)) {
            Files.setPosixFilePermissions(file, FILE);
        }
        return Channels.newOutputStream(Files.newByteChannel(
                file,
                EnumSet.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING),
                fileAttributes(dir)));
    }

    /**
     * Removes group and other permissions from {@code dir} and the regular files directly in it, and
     * logs one WARN naming what was loosened (nothing when all was already owner-only).
     *
     * @throws IOException when a mode cannot be read or set (for example, files owned by someone else)
     */
    public static void tighten(Path dir) throws IOException {
        if (!isPosix(dir)) {
            return;
        }
        List<String> loosened = new ArrayList<>();
        if (restrict(dir, DIRECTORY)) {
            loosened.add(dir.toString());
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path file : files) {
                if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) && restrict(file, FILE)) {
                    loosened.add(String.valueOf(file.getFileName()));
                }
            }
        }
        if (!loosened.isEmpty()) {
            LOG.warn(
                    "data directory was readable beyond its owner; tightened to 0700/0600: {}",
                    String.join(", ", loosened));
        }
    }

    /** Sets {@code path} to {@code allowed} ∩ its mode; true when that removed anything. */
    private static boolean restrict(Path path, Set<PosixFilePermission> allowed) throws IOException {
        Set<PosixFilePermission> mode = Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS);
        if (!mode.removeIf(p -> !allowed.contains(p))) {
            return false;
        }
        Files.setPosixFilePermissions(path, mode);
        return true;
    }

    private static FileAttribute<?>[] attributes(Path dir, Set<PosixFilePermission> permissions) {
        return dir != null && isPosix(dir)
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(permissions)}
                : new FileAttribute<?>[0];
    }

    private static boolean isPosix(Path path) {
        return Files.getFileAttributeView(path, PosixFileAttributeView.class) != null;
    }
}
