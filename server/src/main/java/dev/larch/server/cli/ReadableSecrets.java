package dev.larch.server.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.larch.config.Setting;
import dev.larch.config.SettingCatalog;

/**
 * Tells an operator whose config file holds a secret that every user of the machine may read it, as
 * sshd does for a private key: the administrator's password in a {@code 0644} file is the directory
 * handed to anyone with a shell. Stateless.
 */
final class ReadableSecrets {
    /** The settings whose values are secrets, as declared. */
    static final List<String> SECRET_KEYS = SettingCatalog.all().stream()
            .filter(Setting::secret)
            .map(Setting::key)
            .toList();

    private ReadableSecrets() {}

    /**
     * The warning for {@code file}, or empty when it holds no secret, only its owner and group may read
     * it, or its permissions cannot be read (not a POSIX file system).
     *
     * @param settings the file's settings as written
     */
    static Optional<String> warning(Path file, Map<String, String> settings) {
        List<String> secrets = SECRET_KEYS.stream()
                .filter(key -> {
                    String value = settings.get(key);
                    return value != null && !value.isBlank();
                })
                .toList();
        if (secrets.isEmpty()) {
            return Optional.empty();
        }
        try {
            if (!Files.getPosixFilePermissions(file).contains(PosixFilePermission.OTHERS_READ)) {
                return Optional.empty();
            }
        } catch (IOException | UnsupportedOperationException e) {
            return Optional.empty();
        }
        return Optional.of("the config file " + file + " holds " + String.join(" and ", secrets)
                + " and every user of this machine may read it: chmod 600 " + file);
    }
}
