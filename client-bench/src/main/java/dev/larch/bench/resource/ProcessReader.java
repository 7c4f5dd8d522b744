package dev.larch.bench.resource;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one process's counters from {@code /proc/PID/stat}, {@code status}, {@code io} and
 * {@code net/dev}.
 *
 * <p>CPU times in {@code stat} cover the whole process. Context switches are counted per thread
 * in Linux, so they are read from {@code /proc/PID/task/*}{@code /status} for each live thread
 * (see {@link ProcessCounters#switchesSince}). Linux keeps
 * no per-process socket byte counter, so the network figures are those of the process's network
 * namespace: the whole machine's traffic unless the server runs in a container.
 * Thread-safe (holds no state between readings).
 */
public final class ProcessReader {
    private final ProcSource proc;
    private final long pid;
    private final long ticksPerSecond;

    public ProcessReader(ProcSource proc, long pid, long ticksPerSecond) {
        this.proc = proc;
        this.pid = pid;
        this.ticksPerSecond = ticksPerSecond;
    }

    public long pid() {
        return pid;
    }

    /**
     * A reading of every counter.
     *
     * @throws IOException if {@code stat} cannot be read (the process is gone); the other files only
     *     add notes when missing
     */
    public ProcessCounters read() throws IOException {
        long[] cpu = parseStat(proc.read(pid + "/stat"));
        List<String> notes = new ArrayList<>();
        Map<String, Long> status = optional(pid + "/status", notes);
        Map<Long, ProcessCounters.Switches> threads = threadSwitches(notes);
        Map<String, Long> io = optional(pid + "/io", notes);
        NetDev net = null;
        try {
            net = NetDev.parse(proc.read(pid + "/net/dev"));
        } catch (IOException | RuntimeException e) {
            notes.add(problem(pid + "/net/dev", e));
        }
        return new ProcessCounters(
                cpu[0] * 1_000_000_000L / ticksPerSecond,
                cpu[1] * 1_000_000_000L / ticksPerSecond,
                threads == null
                        ? null
                        : threads.values().stream()
                                .mapToLong(ProcessCounters.Switches::voluntary)
                                .sum(),
                threads == null
                        ? null
                        : threads.values().stream()
                                .mapToLong(ProcessCounters.Switches::involuntary)
                                .sum(),
                status.get("VmRSS"),
                io.get("read_bytes"),
                io.get("write_bytes"),
                net == null ? null : net.receivedBytes(),
                net == null ? null : net.sentBytes(),
                notes,
                threads == null ? Map.of() : threads);
    }

    /** CPU time (user + system) in nanoseconds, reading only {@code stat}. */
    public long cpuNanos() throws IOException {
        long[] cpu = parseStat(proc.read(pid + "/stat"));
        return (cpu[0] + cpu[1]) * 1_000_000_000L / ticksPerSecond;
    }

    /** Resident set size in kB (null if {@code status} has none), reading only {@code status}. */
    public Long rssKb() throws IOException {
        return parseKeyValues(proc.read(pid + "/status")).get("VmRSS");
    }

    /** Each live thread's switches by thread id, or null with a note. */
    private Map<Long, ProcessCounters.Switches> threadSwitches(List<String> notes) {
        List<String> tasks;
        try {
            tasks = proc.list(pid + "/task");
        } catch (IOException | RuntimeException e) {
            notes.add(problem(pid + "/task", e));
            return null;
        }
        Map<Long, ProcessCounters.Switches> threads = new HashMap<>();
        for (String task : tasks) {
            try {
                Map<String, Long> s = parseKeyValues(proc.read(pid + "/task/" + task + "/status"));
                threads.put(
                        Long.parseLong(task),
                        new ProcessCounters.Switches(
                                s.getOrDefault("voluntary_ctxt_switches", 0L),
                                s.getOrDefault("nonvoluntary_ctxt_switches", 0L)));
            } catch (IOException | NumberFormatException e) {
                // the thread ended after the listing (or is not a thread): nothing to add
            }
        }
        return threads;
    }

    private Map<String, Long> optional(String file, List<String> notes) {
        try {
            return parseKeyValues(proc.read(file));
        } catch (IOException | RuntimeException e) {
            notes.add(problem(file, e));
            return Map.of();
        }
    }

    private static String problem(String file, Exception e) {
        String why = e instanceof AccessDeniedException
                ? "permission denied (reading another user's process needs the same user or root)"
                : e.getClass().getSimpleName() + ": " + e.getMessage();
        return "/proc/" + file + " unreadable: " + why;
    }

    /**
     * utime and stime in clock ticks from {@code /proc/PID/stat}.
     *
     * @throws IllegalArgumentException if the text is not a stat line
     */
    public static long[] parseStat(String text) {
        // The command name (field 2) may hold spaces and parentheses; fields resume after the last ')'.
        int close = text.lastIndexOf(')');
        if (close < 0) {
            throw new IllegalArgumentException("not a /proc/PID/stat line: " + text);
        }
        String[] f = text.substring(close + 1).trim().split("\\s+");
        if (f.length < 13) {
            throw new IllegalArgumentException("/proc/PID/stat line too short: " + text);
        }
        return new long[] {Long.parseLong(f[11]), Long.parseLong(f[12])}; // fields 14 and 15
    }

    /**
     * The numeric {@code key: value [kB]} lines of {@code status} or {@code io}; other lines are skipped.
     */
    public static Map<String, Long> parseKeyValues(String text) {
        Map<String, Long> values = new HashMap<>();
        for (String line : text.split("\n")) {
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String[] v = line.substring(colon + 1).trim().split("\\s+");
            if (v.length >= 1 && !v[0].isEmpty() && v[0].chars().allMatch(Character::isDigit)) {
                values.put(line.substring(0, colon).trim(), Long.parseLong(v[0]));
            }
        }
        return values;
    }
}
