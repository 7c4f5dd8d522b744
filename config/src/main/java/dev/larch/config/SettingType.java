package dev.larch.config;

/** The kinds of value a {@link Setting} takes; each has one parser in {@link Settings}. */
public enum SettingType {
    /** Any text (a host, a DN, a URL, a secret), checked further by the code reading it. */
    TEXT,
    /** A decimal integer within the setting's bounds. */
    INTEGER,
    /** A byte count: digits with an optional binary unit (k, m, g, t), within the setting's bounds. */
    SIZE,
    /** true/false, yes/no or on/off. */
    BOOLEAN,
    /** One word of a fixed set, ignoring case. */
    CHOICE,
    /** A path, resolved against the config file's directory. */
    PATH,
    /** A path, or empty for none. */
    OPTIONAL_PATH,
    /** Comma-separated paths; empty for none. */
    PATH_LIST,
    /** Comma-separated words; empty for none. */
    WORD_LIST,
    /** A decimal fraction 0.0..1.0. */
    RATIO,
    /** The kinds of an {@code index.<attribute>} key. */
    INDEX_KINDS
}
