package dev.larch.server.accesslog;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

import ch.qos.logback.core.rolling.RollingFileAppender;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A rolling file appender whose files only their owner may read: the access log names who bound, from
 * where, and what they searched for, and logback would create it with the process umask's permissions
 * (often world-readable). A new file, the first one or the one a rollover starts, is created
 * {@code rw-------} before logback opens it; an existing file is left as the operator set it, with a
 * warning when anyone may read it. A rolled file is the renamed file and keeps its permissions; a
 * gzipped one ({@code logging.access-log-compress}, and the audit log's) is written by logback under
 * the umask: the launchers run the server with {@code umask 077} for them (docs/operations.md, "Access
 * log and tracing").
 */
final class OwnerOnlyRollingFileAppender<E> extends RollingFileAppender<E> {
    private static final Logger LOG = LoggerFactory.getLogger(OwnerOnlyRollingFileAppender.class);
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    @Override
    public void openFile(String fileName) throws IOException {
        Path file = Path.of(fileName).toAbsolutePath();
        Path parent = file.getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        } catch (FileAlreadyExistsException e) {
            warnIfOthersMayRead(file);
        } catch (UnsupportedOperationException e) {
            // Not a POSIX file system: logback creates the file as the platform does.
        }
        super.openFile(fileName);
    }

    private void warnIfOthersMayRead(Path file) {
        try {
            if (Files.getPosixFilePermissions(file).contains(PosixFilePermission.OTHERS_READ)) {
                LOG.warn("the access log {} is readable by every user of this machine; chmod o-r it", file);
            }
        } catch (IOException | UnsupportedOperationException e) {
            // Its permissions cannot be read: nothing to warn about that the open will not report.
        }
    }
}
