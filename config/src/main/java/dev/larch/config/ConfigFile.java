package dev.larch.config;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the {@code key = value} text of a config file, without interpreting any value.
 *
 * <p>The format is deliberately smaller than {@link java.util.Properties}: one setting per line, blank
 * lines and lines starting with {@code #} ignored, key and value trimmed, and no escapes or
 * continuation lines, so passwords and Windows paths keep their backslashes. A key given twice is an
 * error rather than a silent override. The file is UTF-8.
 */
final class ConfigFile {
    private ConfigFile() {}

    /**
     * @param file the file to read
     * @param name how messages name the file
     * @return key to raw value, in file order
     * @throws ConfigException when the file is missing, unreadable, or has a line that is no setting
     */
    static Map<String, String> read(Path file, String name) throws ConfigException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new ConfigException(name + ": file not found", e);
        } catch (CharacterCodingException e) {
            throw new ConfigException(name + ": not valid UTF-8", e);
        } catch (IOException e) {
            throw new ConfigException(name + ": cannot read: " + e, e);
        }
        Map<String, String> settings = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int eq = line.indexOf('=');
            String key = eq < 0 ? "" : line.substring(0, eq).strip();
            if (key.isEmpty()) {
                throw new ConfigException(name + ": line " + (i + 1) + ": expected 'key = value'");
            }
            if (settings.putIfAbsent(key, line.substring(eq + 1).strip()) != null) {
                throw new ConfigException(name + ": " + key + ": set twice (again on line " + (i + 1) + ")");
            }
        }
        return settings;
    }
}
