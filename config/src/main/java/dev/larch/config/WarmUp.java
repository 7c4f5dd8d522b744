package dev.larch.config;

/**
 * Self-warm-up before the listener opens ({@code server.warm-up-seconds}).
 *
 * @param seconds the most time the server runs read-only requests drawn from its own store through
 *     its own request pipeline before it binds its port; 0 for none. It ends sooner once the JIT
 *     compilers have gone quiet, or on a store with few or no entries. 0..600.
 */
public record WarmUp(int seconds) {
    /** The most {@code server.warm-up-seconds} accepts: a start is never held up longer than this. */
    public static final int MAX_SECONDS = 600;

    public WarmUp {
        if (seconds < 0 || seconds > MAX_SECONDS) {
            throw new IllegalArgumentException("server.warm-up-seconds must be 0.." + MAX_SECONDS + ", got " + seconds);
        }
    }

    /** Whether the server warms up at all. */
    public boolean enabled() {
        return seconds > 0;
    }
}
