package dev.larch.server.accesslog;

import java.io.OutputStream;
import java.io.PrintStream;

/**
 * The process's standard output as the access log's stream: {@link System#out} as it was when the
 * access log was set up, written in whole buffers and never closed (the server log shares it).
 * {@code System.out} flushes at every write, so the buffer in front of this stream decides how many
 * lines one system call carries. Thread-safe as {@link PrintStream} is.
 */
final class StandardOutput extends OutputStream {
    private final PrintStream out;

    StandardOutput(PrintStream out) {
        this.out = out;
    }

    @Override
    public void write(int b) {
        out.write(b);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
        out.write(bytes, offset, length);
    }

    @Override
    public void flush() {
        out.flush();
    }

    /** Flushes only: standard output stays open for the server log. */
    @Override
    public void close() {
        out.flush();
    }
}
