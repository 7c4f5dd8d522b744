package dev.larch.server.accesslog;

/**
 * Each thread's builders for an access log line and for a search filter's text, kept from one line
 * to the next instead of made for each: they were about 400 of the 2,100 bytes the access log
 * allocated per messaging search (async-profiler, alloc mode). A line's text still leaves as its own
 * string, which the writer thread takes.
 *
 * <p>Bounded: a builder that a long line grew past {@value #KEPT_CHARS} characters is dropped when
 * next asked for, so a thread keeps at most two builders of that size (the event loops and
 * workers: a few dozen threads). Not reentrant: a builder is in use from one call until the line
 * it builds is turned into a string, with no other line begun on the thread in between.
 */
final class KeptBuilders {
    static final int KEPT_CHARS = 1024;
    private static final int LINE_CHARS = 256;
    private static final int FILTER_CHARS = 128;

    private static final ThreadLocal<StringBuilder[]> KEPT = ThreadLocal.withInitial(
            () -> new StringBuilder[] {new StringBuilder(LINE_CHARS), new StringBuilder(FILTER_CHARS)});

    private KeptBuilders() {}

    /** This thread's line builder, emptied. */
    static StringBuilder line() {
        return kept(0, LINE_CHARS);
    }

    /** This thread's filter builder, emptied. */
    static StringBuilder filter() {
        return kept(1, FILTER_CHARS);
    }

    private static StringBuilder kept(int which, int initialChars) {
        StringBuilder[] builders = KEPT.get();
        StringBuilder builder = builders[which];
        if (builder.capacity() > KEPT_CHARS) {
            builder = new StringBuilder(initialChars);
            builders[which] = builder;
        }
        builder.setLength(0);
        return builder;
    }
}
