package dev.larch.config;

import java.util.stream.Collectors;

/**
 * Writes {@code docs/configuration.md}, the reference of every configuration key, from the
 * {@link SettingCatalog}: per group of keys, what they do, then each key's values, default and when
 * a change takes effect.
 */
public final class ReferenceRenderer {
    private ReferenceRenderer() {}

    /** The whole document. */
    public static String render() {
        StringBuilder out = new StringBuilder();
        out.append("# Configuration reference\n\n")
                .append("Generated from the settings' declarations (`config/src/main/java/dev/larch/config/")
                .append("SettingCatalog.java`) with `config/larch.conf`; do not edit by hand. ")
                .append("`./larch config describe KEY` prints one key's entry, and `./larch config check")
                .append(" [--config FILE]` validates a file and prints the configuration it makes.\n\n")
                .append("The file format: one `key = value` per line, `#` starts a comment line. ")
                .append("An unknown key or a bad value stops the server with a one-line message naming the key.\n");
        for (SettingCatalog.Section section : SettingCatalog.sections()) {
            out.append("\n## ")
                    .append(section.title().isEmpty() ? "suffix" : section.title())
                    .append("\n");
            for (SettingCatalog.Group group : section.groups()) {
                out.append("\n### ")
                        .append(group.settings().stream()
                                .map(s -> "`" + s.key() + "`")
                                .collect(Collectors.joining(", ")))
                        .append("\n\n")
                        .append(prose(group.description().strip()))
                        .append("\n\n| key | value | default | a change applies |\n|---|---|---|---|\n");
                for (Setting s : group.settings()) {
                    out.append("| `")
                            .append(s.key())
                            .append("` | ")
                            .append(cell(s.valueDescription()))
                            .append(" | ")
                            .append(s.defaultValue().isEmpty() ? "(empty)" : "`" + cell(s.defaultValue()) + "`")
                            .append(" | ")
                            .append(cell(s.applyDescription()))
                            .append(" |\n");
                }
            }
        }
        return out.toString();
    }

    /** Plain text as Markdown shows it: no tag, emphasis or escape is read into it. */
    private static String prose(String text) {
        return text.replace("\\", "\\\\")
                .replace("<", "&lt;")
                .replace("*", "\\*")
                .replace("_", "\\_")
                .replace("`", "\\`");
    }

    private static String cell(String text) {
        return text.replace("|", "\\|");
    }
}
