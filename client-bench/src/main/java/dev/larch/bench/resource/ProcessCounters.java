package dev.larch.bench.resource;

import java.util.List;

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
        List<String> notes) {

    public ProcessCounters {
        notes = List.copyOf(notes);
    }

    public long cpuNanos() {
        return userNanos + systemNanos;
    }
}
