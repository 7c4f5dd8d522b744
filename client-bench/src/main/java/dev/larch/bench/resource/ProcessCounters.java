package dev.larch.bench.resource;

import java.util.List;
import java.util.Map;

/**
 * One reading of a process's cumulative counters. A null counter could not be read; {@code notes}
 * says why (for example, {@code /proc/PID/io} needs the privileges to trace the process).
 *
 * @param userNanos CPU time in user mode ({@code utime})
 * @param systemNanos CPU time in kernel mode ({@code stime})
 * @param voluntaryContextSwitches the process's threads gave up the CPU (waiting for I/O or a lock)
 * @param involuntaryContextSwitches the scheduler took the CPU away (more runnable threads than cores)
 * @param rssKb resident memory now (a level, not a counter)
 * @param diskReadBytes bytes the process caused to be read from storage, or null
 * @param diskWriteBytes bytes the process caused to be written to storage, or null
 * @param netReceivedBytes bytes received on the interfaces of the process's network namespace, or null
 * @param netSentBytes bytes sent on the interfaces of the process's network namespace, or null
 * @param notes counters that could not be read, and why
 * @param threadSwitches voluntary and involuntary switches of each live thread by thread id, or an
 *     empty map when they could not be read
 */
public record ProcessCounters(
        long userNanos,
        long systemNanos,
        Long voluntaryContextSwitches,
        Long involuntaryContextSwitches,
        Long rssKb,
        Long diskReadBytes,
        Long diskWriteBytes,
        Long netReceivedBytes,
        Long netSentBytes,
        List<String> notes,
        Map<Long, Switches> threadSwitches) {

    public ProcessCounters {
        notes = List.copyOf(notes);
        threadSwitches = Map.copyOf(threadSwitches);
    }

    /** One thread's context switches. */
    public record Switches(long voluntary, long involuntary) {}

    /**
     * Switches between {@code earlier} and this reading: for each thread alive now, its count minus
     * its count in {@code earlier} (all of it for a thread started since). Linux counts switches per
     * thread only, so a thread that ended between the readings takes its switches along; a sum of
     * totals would even go backwards then.
     *
     * @return voluntary and involuntary, or null when either reading lacks the threads
     */
    public Switches switchesSince(ProcessCounters earlier) {
        if (voluntaryContextSwitches == null || earlier.voluntaryContextSwitches() == null) {
            return null;
        }
        long voluntary = 0;
        long involuntary = 0;
        for (Map.Entry<Long, Switches> t : threadSwitches.entrySet()) {
            Switches before = earlier.threadSwitches().getOrDefault(t.getKey(), new Switches(0, 0));
            voluntary += Math.max(0, t.getValue().voluntary() - before.voluntary());
            involuntary += Math.max(0, t.getValue().involuntary() - before.involuntary());
        }
        return new Switches(voluntary, involuntary);
    }

    public long cpuNanos() {
        return userNanos + systemNanos;
    }
}
