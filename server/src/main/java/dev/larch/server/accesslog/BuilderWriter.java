package dev.larch.server.accesslog;

import java.io.Writer;

/**
 * A {@link Writer} that appends to a {@link StringBuilder}, one per thread and pointed at that thread's
 * kept line builder for each line: the JSON access log's generator writes through it. Unlike a
 * {@code StringWriter} it takes no lock and makes no buffer of its own. Used by one thread at a time.
 */
final class BuilderWriter extends Writer {
    private static final ThreadLocal<BuilderWriter> KEPT = ThreadLocal.withInitial(BuilderWriter::new);

    private StringBuilder target;

    private BuilderWriter() {}

    /** This thread's writer, appending to {@code target} until it is pointed elsewhere. */
    static BuilderWriter into(StringBuilder target) {
        BuilderWriter writer = KEPT.get();
        writer.target = target;
        return writer;
    }

    @Override
    public void write(char[] chars, int offset, int length) {
        target.append(chars, offset, length);
    }

    @Override
    public void write(String text, int offset, int length) {
        target.append(text, offset, offset + length);
    }

    @Override
    public void write(int c) {
        target.append((char) c);
    }

    @Override
    public void flush() {
        // Nothing is buffered here.
    }

    @Override
    public void close() {
        // The builder outlives the line: KeptBuilders hands it out again.
    }
}
