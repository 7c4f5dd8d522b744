package dev.larch.bench.resource;

import java.util.List;

/**
 * One reading of the whole machine's cumulative counters. Null counters could not be read;
 * {@code notes} says why.
 *
 * @param cores online CPUs (the lines {@code cpuN} of /proc/stat)
 * @param userNanos CPU time in user mode, nice included, over all cores
 * @param systemNanos CPU time in kernel mode, interrupts included, over all cores
 * @param iowaitNanos idle time while I/O was outstanding, over all cores
 * @param idleNanos idle time, over all cores (iowait excluded)
 * @param contextSwitches context switches since boot ({@code ctxt})
 * @param diskReadBytes bytes read from whole physical disks, or null
 * @param diskWriteBytes bytes written to whole physical disks, or null
 * @param netReceivedBytes bytes received on every interface, loopback included, or null
 * @param netSentBytes bytes sent on every interface, loopback included, or null
 * @param notes counters that could not be read, and why
 */
public record MachineCounters(
        int cores,
        long userNanos,
        long systemNanos,
        long iowaitNanos,
        long idleNanos,
        long contextSwitches,
        Long diskReadBytes,
        Long diskWriteBytes,
        Long netReceivedBytes,
        Long netSentBytes,
        List<String> notes) {

    public MachineCounters {
        notes = List.copyOf(notes);
    }
}
