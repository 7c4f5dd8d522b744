package dev.larch.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.larch.bench.report.BenchResult.Resources;

/**
 * The resource columns at the end of result.csv: filled on a run's ALL row (the summary's ALL row
 * gets only ops per server CPU-second), empty elsewhere and wherever a figure is unknown.
 */
final class ResourceColumns {
    static final List<String> NAMES = List.of(
            "ops_per_server_cpu_s",
            "server_user_cpu_s",
            "server_system_cpu_s",
            "server_voluntary_cs",
            "server_involuntary_cs",
            "server_disk_read_bytes",
            "server_disk_write_bytes",
            "server_net_rx_bytes",
            "server_net_tx_bytes",
            "machine_user_cpu_s",
            "machine_system_cpu_s",
            "machine_iowait_s",
            "machine_cs",
            "machine_disk_read_bytes",
            "machine_disk_write_bytes",
            "machine_net_rx_bytes",
            "machine_net_tx_bytes",
            "server_heap_used_max_bytes",
            "server_gc_s");

    static final String HEADER = "," + String.join(",", NAMES);

    private ResourceColumns() {}

    /** Cells of a row without resource figures. */
    static String blank() {
        return ",".repeat(NAMES.size());
    }

    /** Cells of the summary row. */
    static String summary(Double opsPerServerCpuSecond) {
        return "," + num(opsPerServerCpuSecond) + ",".repeat(NAMES.size() - 1);
    }

    /** Cells of a run's ALL row; all empty when the run has no resource figures (an older result). */
    static String of(Resources r) {
        if (r == null) {
            return blank();
        }
        List<Object> cells = new ArrayList<>();
        cells.add(r.opsPerServerCpuSecond());
        BenchResult.ProcessUse s = r.server();
        cells.add(s == null ? null : s.userCpuSeconds());
        cells.add(s == null ? null : s.systemCpuSeconds());
        cells.add(s == null ? null : s.voluntaryContextSwitches());
        cells.add(s == null ? null : s.involuntaryContextSwitches());
        cells.add(s == null ? null : s.diskReadBytes());
        cells.add(s == null ? null : s.diskWriteBytes());
        cells.add(s == null ? null : s.netReceivedBytes());
        cells.add(s == null ? null : s.netSentBytes());
        BenchResult.MachineUse m = r.machine();
        cells.add(m == null ? null : m.userCpuSeconds());
        cells.add(m == null ? null : m.systemCpuSeconds());
        cells.add(m == null ? null : m.iowaitSeconds());
        cells.add(m == null ? null : m.contextSwitches());
        cells.add(m == null ? null : m.diskReadBytes());
        cells.add(m == null ? null : m.diskWriteBytes());
        cells.add(m == null ? null : m.netReceivedBytes());
        cells.add(m == null ? null : m.netSentBytes());
        BenchResult.JvmUse j = r.serverJvm();
        cells.add(j == null ? null : j.heapUsedMaxBytes());
        cells.add(j == null ? null : j.gcSeconds());
        StringBuilder sb = new StringBuilder();
        for (Object c : cells) {
            sb.append(',').append(c instanceof Double d ? num(d) : c == null ? "" : c.toString());
        }
        return sb.toString();
    }

    private static String num(Double d) {
        return d == null ? "" : String.format(Locale.ROOT, "%.3f", d);
    }
}
