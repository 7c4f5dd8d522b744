package dev.larch.config;

/**
 * Writes {@code config/larch.conf}, the commented config file users copy and edit, from the
 * {@link SettingCatalog}: every key with its default and its description as comments.
 */
public final class ConfFileRenderer {
    /** Section rules are padded with dashes to this width. */
    static final int WIDTH = 100;

    private ConfFileRenderer() {}

    /** The whole file. */
    public static String render() {
        StringBuilder out = new StringBuilder();
        comment(out, SettingCatalog.PREAMBLE);
        for (SettingCatalog.Section section : SettingCatalog.sections()) {
            out.append('\n');
            if (!section.title().isEmpty()) {
                StringBuilder rule =
                        new StringBuilder("# ---- ").append(section.title()).append(' ');
                while (rule.length() < WIDTH) {
                    rule.append('-');
                }
                out.append(rule).append('\n');
            }
            for (SettingCatalog.Group group : section.groups()) {
                comment(out, group.description());
                for (Setting s : group.settings()) {
                    if (s.commentedOut()) {
                        out.append("# ");
                    }
                    out.append(s.key()).append(" =");
                    if (!s.defaultValue().isEmpty()) {
                        out.append(' ').append(s.defaultValue());
                    }
                    out.append('\n');
                }
            }
        }
        return out.toString();
    }

    private static void comment(StringBuilder out, String text) {
        for (String line : text.split("\n", -1)) {
            out.append(line.isEmpty() ? "#" : "# " + line).append('\n');
        }
    }
}
