package dev.larch.bench.run;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Reads a local server process's CPU time and resident memory from Linux {@code /proc}.
 *
 * <p>Only meaningful when the server runs on the load generator's machine. Every reading returns
 * -1 once the process is gone, so a server that dies mid-run does not crash the harness.
 */
public final class ServerProcess {
    private final long pid;
    private final long ticksPerSecond;

    private ServerProcess(long pid, long ticksPerSecond) {
        this.pid = pid;
        this.ticksPerSecond = ticksPerSecond;
    }

    /**
     * @throws IllegalArgumentException if no such process can be read
     */
    public static ServerProcess of(long pid) {
        if (!Files.isReadable(Path.of("/proc", Long.toString(pid), "stat"))) {
            throw new IllegalArgumentException("--server-pid " + pid + ": no such process (or /proc is not readable)");
        }
        return new ServerProcess(pid, clockTicks());
    }

    public long pid() {
        return pid;
    }

    /** user + system CPU time in nanoseconds, or -1. */
    public long cpuNanos() {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.US_ASCII);
            // The command name may contain spaces and parentheses; fields resume after the last ')'.
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
            long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime (fields 14, 15)
            return ticks * 1_000_000_000L / ticksPerSecond;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Resident set size in kB, or -1. */
    public long rssKb() {
        try {
            for (String line :
                    Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"), StandardCharsets.US_ASCII)) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.substring(6).replace("kB", "").trim());
                }
            }
            return -1;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** USER_HZ from getconf; 100 (the Linux default) if getconf is unavailable. */
    private static long clockTicks() {
        try {
            Process p = new ProcessBuilder("getconf", "CLK_TCK")
                    .redirectErrorStream(true)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
            if (p.waitFor(2, TimeUnit.SECONDS) && p.exitValue() == 0) {
                return Long.parseLong(out);
            }
        } catch (IOException | RuntimeException e) {
            // fall through to the default
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 100;
    }
}
