package dev.larch.server.read;

import java.util.Objects;

import dev.larch.config.Limits;

/**
 * The server's search limits as they stand now: read at the start of each search (and subtree
 * delete), replaced whole by a reload of the config ({@code limits.size-limit},
 * {@code limits.time-limit-seconds}, {@code limits.look-through-limit}, {@code limits.apply-to-admin}).
 * A search keeps the bounds it started with.
 *
 * <p>Thread-safe: a reader sees either the old or the new bounds, never a mix.
 */
public final class CurrentSearchLimits {
    private volatile SearchLimits limits;

    public CurrentSearchLimits(SearchLimits initial) {
        this.limits = Objects.requireNonNull(initial, "initial");
    }

    /** The search bounds of the config's {@code limits.*} keys. */
    public static SearchLimits of(Limits config) {
        return new SearchLimits(
                config.sizeLimit(), config.timeLimitSeconds(), config.lookThroughLimit(), config.applyToAdmin());
    }

    public SearchLimits get() {
        return limits;
    }

    /** Searches that start from now on use {@code replacement}. */
    public void set(SearchLimits replacement) {
        limits = Objects.requireNonNull(replacement, "replacement");
    }
}
