package dev.larch.bench.resource;

import java.io.IOException;

/** A Java server's heap and GC time, read from outside the server. Implementations are thread-safe. */
public interface JvmGauges extends AutoCloseable {
    /** What the readings come from, for the report (e.g. the URL). */
    String source();

    /**
     * @throws IOException if the server cannot be asked (gone, or not answering)
     */
    JvmReading read() throws IOException;

    @Override
    default void close() {}
}
