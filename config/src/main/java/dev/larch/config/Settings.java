package dev.larch.config;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Typed, validated access to the raw settings of one config file. Every read consumes its key, so
 * whatever is left at the end is an unknown key. Error messages name the file and the key, and quote
 * the offending value (except for secrets).
 *
 * <p>Not thread-safe; one instance serves one load.
 */
final class Settings {
    private final String fileName;
    private final Path baseDir;
    private final Map<String, String> remaining;

    /**
     * @param fileName how messages name the file
     * @param baseDir the directory relative paths resolve against
     * @param raw key to raw value, as read from the file
     */
    Settings(String fileName, Path baseDir, Map<String, String> raw) {
        this.fileName = fileName;
        this.baseDir = baseDir;
        this.remaining = new LinkedHashMap<>(raw);
    }

    /**
     * The raw value of a key, consuming it; empty when the file does not set it.
     *
     * @throws IllegalStateException when {@link SettingCatalog} does not declare the key (a
     *     programming error: every key read must be declared)
     */
    Optional<String> take(String key) {
        if (SettingCatalog.find(key).isEmpty()) {
            throw new IllegalStateException("no setting " + key + " is declared in SettingCatalog");
        }
        return Optional.ofNullable(remaining.remove(key));
    }

    /** The keys starting with a prefix that are still unread, in file order. */
    List<String> keysWithPrefix(String prefix) {
        List<String> keys = new ArrayList<>();
        for (String key : remaining.keySet()) {
            if (key.startsWith(prefix)) {
                keys.add(key);
            }
        }
        return keys;
    }

    String string(String key, String fallback) throws ConfigException {
        Optional<String> value = take(key);
        if (value.isPresent() && value.get().isEmpty()) {
            throw error(key, "expected a value, got nothing");
        }
        return value.orElse(fallback);
    }

    /** An integer within the bounds its declaration gives. */
    int integer(String key, int fallback) throws ConfigException {
        Setting declared = declared(key, SettingType.INTEGER);
        long min = declared.min();
        long max = declared.max();
        Optional<String> value = take(key);
        if (value.isEmpty()) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(value.get());
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below with the range
        }
        throw error(key, "expected an integer " + min + ".." + max + ", got '" + value.get() + "'");
    }

    /** A decimal fraction 0.0..1.0, such as {@code 0.25}. */
    double ratio(String key, double fallback) throws ConfigException {
        declared(key, SettingType.RATIO);
        Optional<String> value = take(key);
        if (value.isEmpty()) {
            return fallback;
        }
        // Plain decimals only: Double.parseDouble would also take "NaN", "1e0" or "0x1p-1".
        if (value.get().matches("[0-9]+(\\.[0-9]+)?|\\.[0-9]+")) {
            double d = Double.parseDouble(value.get());
            if (d <= 1.0) {
                return d;
            }
        }
        throw error(key, "expected a number 0.0..1.0, got '" + value.get() + "'");
    }

    boolean bool(String key, boolean fallback) throws ConfigException {
        declared(key, SettingType.BOOLEAN);
        Optional<String> value = take(key);
        if (value.isEmpty()) {
            return fallback;
        }
        return switch (value.get().toLowerCase(Locale.ROOT)) {
            case "true", "yes", "on" -> true;
            case "false", "no", "off" -> false;
            default -> throw error(key, "expected true or false, got '" + value.get() + "'");
        };
    }

    /** A byte count written as digits with an optional binary unit: {@code 512m}, {@code 64g}, {@code 1048576}. */
    long size(String key, long fallback) throws ConfigException {
        Setting declared = declared(key, SettingType.SIZE);
        long min = declared.min();
        long max = declared.max();
        Optional<String> value = take(key);
        if (value.isEmpty()) {
            return fallback;
        }
        long bytes = ByteSize.parse(value.get());
        if (bytes < min || bytes > max) {
            throw error(
                    key,
                    "expected a size " + ByteSize.format(min) + ".." + ByteSize.format(max)
                            + " (digits with an optional k, m, g or t), got '" + value.get() + "'");
        }
        return bytes;
    }

    /** One of a fixed set of words, ignoring case; returns the word as spelled in {@code choices}. */
    String choice(String key, String fallback) throws ConfigException {
        List<String> choices = declared(key, SettingType.CHOICE).choices();
        Optional<String> value = take(key);
        if (value.isEmpty()) {
            return fallback;
        }
        for (String choice : choices) {
            if (choice.equalsIgnoreCase(value.get())) {
                return choice;
            }
        }
        throw error(key, "expected one of " + String.join(", ", choices) + ", got '" + value.get() + "'");
    }

    Path path(String key, Path fallback) throws ConfigException {
        Optional<String> value = take(key);
        if (value.isEmpty()) {
            return fallback;
        }
        return resolve(key, value.get());
    }

    /** A path that may be left empty: an empty value means none (null); unset keeps {@code fallback}. */
    Path optionalPath(String key, Path fallback) throws ConfigException {
        Optional<String> value = take(key);
        if (value.isEmpty()) {
            return fallback;
        }
        return value.get().isBlank() ? null : resolve(key, value.get().strip());
    }

    /** A comma-separated list of paths; empty items are ignored, so an empty value is an empty list. */
    List<Path> paths(String key, List<Path> fallback) throws ConfigException {
        Optional<String> value = take(key);
        if (value.isEmpty()) {
            return fallback;
        }
        List<Path> paths = new ArrayList<>();
        for (String item : splitList(value.get())) {
            paths.add(resolve(key, item));
        }
        return paths;
    }

    /** A comma-separated list of words; an empty value is an empty list; unset keeps {@code fallback}. */
    List<String> list(String key, List<String> fallback) {
        Optional<String> value = take(key);
        return value.isEmpty() ? fallback : splitList(value.get());
    }

    /** Fails on the first key no read has consumed. */
    void requireAllRead() throws ConfigException {
        if (!remaining.isEmpty()) {
            throw error(remaining.keySet().iterator().next(), "unknown key");
        }
    }

    private static Setting declared(String key, SettingType type) {
        Setting declared = SettingCatalog.declared(key);
        if (declared.type() != type) {
            throw new IllegalStateException(key + " is declared " + declared.type() + ", read as " + type);
        }
        return declared;
    }

    ConfigException error(String key, String problem) {
        return new ConfigException(fileName + ": " + key + ": " + problem);
    }

    static List<String> splitList(String value) {
        List<String> items = new ArrayList<>();
        for (String item : value.split(",")) {
            if (!item.isBlank()) {
                items.add(item.strip());
            }
        }
        return items;
    }

    Path resolve(String key, String value) throws ConfigException {
        if (value.isEmpty()) {
            throw error(key, "expected a path, got nothing");
        }
        try {
            return baseDir.resolve(value).normalize();
        } catch (InvalidPathException e) {
            throw error(key, "not a valid path: '" + value + "'");
        }
    }
}
