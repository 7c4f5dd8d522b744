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
 * Typed, validated access to the raw settings of one config file (or of settings given in code).
 * Every read consumes its key, so whatever is left at the end is an unknown key. A key that is not
 * set reads as its default declared in {@link SettingCatalog}; a default path is taken as written
 * (relative to the working directory), never resolved against the file's directory. Error messages
 * name the file and the key, and quote the offending value (except for secrets).
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

    /** The value of a key as written, or its declared default when unset. */
    String value(String key) {
        return take(key).orElseGet(() -> SettingCatalog.declared(key).defaultValue());
    }

    String string(String key) throws ConfigException {
        String value = value(key);
        if (value.isEmpty()) {
            throw error(key, "expected a value, got nothing");
        }
        return value;
    }

    /** An integer within the bounds its declaration gives. */
    int integer(String key) throws ConfigException {
        Setting declared = declared(key, SettingType.INTEGER);
        long min = declared.min();
        long max = declared.max();
        String value = value(key);
        try {
            int n = Integer.parseInt(value);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below with the range
        }
        throw error(key, "expected an integer " + min + ".." + max + ", got '" + value + "'");
    }

    /** A decimal fraction 0.0..1.0, such as {@code 0.25}. */
    double ratio(String key) throws ConfigException {
        declared(key, SettingType.RATIO);
        String value = value(key);
        // Plain decimals only: Double.parseDouble would also take "NaN", "1e0" or "0x1p-1".
        if (value.matches("[0-9]+(\\.[0-9]+)?|\\.[0-9]+")) {
            double d = Double.parseDouble(value);
            if (d <= 1.0) {
                return d;
            }
        }
        throw error(key, "expected a number 0.0..1.0, got '" + value + "'");
    }

    boolean bool(String key) throws ConfigException {
        declared(key, SettingType.BOOLEAN);
        String value = value(key);
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "true", "yes", "on" -> true;
            case "false", "no", "off" -> false;
            default -> throw error(key, "expected true or false, got '" + value + "'");
        };
    }

    /** A byte count written as digits with an optional binary unit: {@code 512m}, {@code 64g}, {@code 1048576}. */
    long size(String key) throws ConfigException {
        Setting declared = declared(key, SettingType.SIZE);
        long min = declared.min();
        long max = declared.max();
        String value = value(key);
        long bytes = ByteSize.parse(value);
        if (bytes < min || bytes > max) {
            throw error(
                    key,
                    "expected a size " + ByteSize.format(min) + ".." + ByteSize.format(max)
                            + " (digits with an optional k, m, g or t), got '" + value + "'");
        }
        return bytes;
    }

    /** One of a fixed set of words, ignoring case; returns the word as spelled in {@code choices}. */
    String choice(String key) throws ConfigException {
        List<String> choices = declared(key, SettingType.CHOICE).choices();
        String value = value(key);
        for (String choice : choices) {
            if (choice.equalsIgnoreCase(value)) {
                return choice;
            }
        }
        throw error(key, "expected one of " + String.join(", ", choices) + ", got '" + value + "'");
    }

    Path path(String key) throws ConfigException {
        Optional<String> value = take(key);
        return value.isPresent()
                ? resolve(key, value.get())
                : byDefault(key, SettingCatalog.declared(key).defaultValue());
    }

    /** A path that may be left empty: an empty value means none (null). */
    Path optionalPath(String key) throws ConfigException {
        Optional<String> value = take(key);
        String raw = value.orElseGet(() -> SettingCatalog.declared(key).defaultValue())
                .strip();
        if (raw.isEmpty()) {
            return null;
        }
        return value.isPresent() ? resolve(key, raw) : byDefault(key, raw);
    }

    /** A comma-separated list of paths; empty items are ignored, so an empty value is an empty list. */
    List<Path> paths(String key) throws ConfigException {
        Optional<String> value = take(key);
        List<Path> paths = new ArrayList<>();
        for (String item :
                splitList(value.orElseGet(() -> SettingCatalog.declared(key).defaultValue()))) {
            paths.add(value.isPresent() ? resolve(key, item) : byDefault(key, item));
        }
        return paths;
    }

    /** A comma-separated list of words; an empty value is an empty list. */
    List<String> list(String key) {
        return splitList(value(key));
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

    /** A default path, as declared: relative to the working directory, like a path given on the command line. */
    private Path byDefault(String key, String value) throws ConfigException {
        try {
            return Path.of(value);
        } catch (InvalidPathException e) {
            throw error(key, "not a valid path: '" + value + "'");
        }
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
