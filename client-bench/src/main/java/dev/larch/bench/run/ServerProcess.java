package dev.larch.bench.run;

import java.io.IOException;

import dev.larch.bench.resource.ClockTicks;
import dev.larch.bench.resource.ProcSource;
import dev.larch.bench.resource.ProcessCounters;
import dev.larch.bench.resource.ProcessReader;

/**
 * A local server process, read from Linux {@code /proc}: CPU time, resident memory and (through
 * {@link #counters()}) context switches, disk and network bytes.
 *
 * <p>Only meaningful when the server runs on the load generator's machine. Readings return -1 or
 * throw {@link IOException} once the process is gone, so a server that dies mid-run does not crash
 * the harness.
 */
public final class ServerProcess {
    private final ProcessReader reader;

    ServerProcess(ProcessReader reader) {
        this.reader = reader;
    }

    /**
     * @throws IllegalArgumentException if no such process can be read
     */
    public static ServerProcess of(long pid) {
        ProcessReader reader = new ProcessReader(ProcSource.system(), pid, ClockTicks.perSecond());
        try {
            reader.cpuNanos();
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("--server-pid " + pid + ": no such process (or /proc is not readable)");
        }
        return new ServerProcess(reader);
    }

    public long pid() {
        return reader.pid();
    }

    /**
     * Every counter at once.
     *
     * @throws IOException if the process is gone
     */
    public ProcessCounters counters() throws IOException {
        return reader.read();
    }

    /** user + system CPU time in nanoseconds, or -1. */
    public long cpuNanos() {
        try {
            return reader.cpuNanos();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Resident set size in kB, or -1. */
    public long rssKb() {
        try {
            Long rss = reader.rssKb();
            return rss == null ? -1 : rss;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
