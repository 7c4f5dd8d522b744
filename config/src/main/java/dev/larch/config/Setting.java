package dev.larch.config;

import java.util.List;
import java.util.Objects;

/**
 * One configuration key, declared once in {@link SettingCatalog}: its name, the kind of value it
 * takes with the bounds a value must keep, its default (as written in a config file), when a change
 * takes effect and whether it is a secret. Parsing ({@link Settings}), the reload's decisions, the
 * shipped {@code config/larch.conf}, {@code docs/configuration.md} and {@code ./larch config} read
 * it from here.
 *
 * @param key the key as written in a config file
 * @param type how a value is parsed
 * @param defaultValue the default as a config file writes it; empty for none
 * @param commentedOut the shipped file shows the default as a comment ({@code # key = value}): it is
 *     computed at start (a path relative to where the server runs) and setting it pins it
 * @param min the smallest value of an {@link SettingType#INTEGER} or {@link SettingType#SIZE}
 * @param max the largest such value
 * @param choices the words a {@link SettingType#CHOICE} accepts
 * @param apply when a changed value takes effect
 * @param secret never logged nor printed (shown as {@code ***})
 * @param description what it does, as a paragraph of plain text (shared by the keys of one group)
 */
public record Setting(
        String key,
        SettingType type,
        String defaultValue,
        boolean commentedOut,
        long min,
        long max,
        List<String> choices,
        Apply apply,
        boolean secret,
        String description) {

    /** When a changed value of a setting takes effect. */
    public enum Apply {
        /** At the next start. */
        RESTART,
        /** At a reload ({@code SIGHUP}, {@code ./larch reload}), for operations that start afterwards. */
        RELOAD,
        /** At a reload, for connections that start afterwards, when the server started with TLS. */
        RELOAD_WITH_TLS,
        /** At a reload, when the server started with TLS and with client certificates asked for. */
        RELOAD_WITH_CLIENT_CERTIFICATES
    }

    public Setting {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(defaultValue, "defaultValue");
        choices = List.copyOf(choices);
        Objects.requireNonNull(apply, "apply");
        Objects.requireNonNull(description, "description");
    }

    /** How the value is described to a user: its kind and bounds. */
    public String valueDescription() {
        return switch (type) {
            case INTEGER -> "an integer " + bound(min) + ".." + bound(max);
            case SIZE ->
                "a size " + ByteSize.format(min) + ".." + ByteSize.format(max)
                        + " (digits with an optional k, m, g or t)";
            case BOOLEAN -> "true or false";
            case CHOICE -> "one of " + String.join(", ", choices);
            case TEXT -> secret ? "a secret (never logged nor printed)" : "text";
            case PATH -> "a path, relative to the config file's directory";
            case OPTIONAL_PATH -> "a path, relative to the config file's directory; empty for none";
            case PATH_LIST -> "comma-separated paths, relative to the config file's directory; empty for none";
            case WORD_LIST -> "comma-separated words; empty for none";
            case RATIO -> "a number 0.0..1.0";
            case INDEX_KINDS -> "index kinds: equality, presence, substring, ordering, or none";
        };
    }

    /** When a change takes effect, in words. */
    public String applyDescription() {
        return switch (apply) {
            case RESTART -> "at the next start";
            case RELOAD -> "at a reload (./larch reload or SIGHUP)";
            case RELOAD_WITH_TLS -> "at a reload, for new connections, when the server started with TLS";
            case RELOAD_WITH_CLIENT_CERTIFICATES ->
                "at a reload, when the server started with TLS and tls.ca-certificates set";
        };
    }

    private static String bound(long n) {
        return n == Integer.MAX_VALUE ? "2147483647" : n == Long.MAX_VALUE ? "9223372036854775807" : Long.toString(n);
    }

    Setting reloaded() {
        return withApply(Apply.RELOAD);
    }

    Setting reloadedWithTls() {
        return withApply(Apply.RELOAD_WITH_TLS);
    }

    Setting reloadedWithClientCertificates() {
        return withApply(Apply.RELOAD_WITH_CLIENT_CERTIFICATES);
    }

    Setting shownCommentedOut() {
        return new Setting(key, type, defaultValue, true, min, max, choices, apply, secret, description);
    }

    Setting describedAs(String text) {
        return new Setting(key, type, defaultValue, commentedOut, min, max, choices, apply, secret, text);
    }

    private Setting withApply(Apply when) {
        return new Setting(key, type, defaultValue, commentedOut, min, max, choices, when, secret, description);
    }
}
