package dev.larch.bench.run;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.larch.bench.report.BenchResult;
import dev.larch.bench.resource.JvmGauges;
import dev.larch.bench.resource.JvmReading;
import dev.larch.bench.resource.MachineCounters;
import dev.larch.bench.resource.MachineReader;
import dev.larch.bench.resource.ProcessCounters;

/**
 * What one run's measurement phase cost the server and the machine: counters read when the
 * measurement starts and when it ends, and a Java server's heap at every interval boundary between.
 *
 * <p>Used by the run's timekeeping thread only; not thread-safe. A counter that cannot be read
 * becomes null with a note, never an exception.
 */
public final class ResourceMonitor {
    private final ServerProcess server;
    private final MachineReader machine;
    private final JvmGauges jvm;
    private final Set<String> notes = new LinkedHashSet<>();
    private final List<Long> heapSamples = new ArrayList<>();
    private ProcessCounters serverStart;
    private MachineCounters machineStart;
    private Double gcStart;
    private Long heapMax;

    /**
     * @param server the server process, or null
     * @param machine the machine's counters
     * @param jvm the server's JVM gauges, or null
     */
    public ResourceMonitor(ServerProcess server, MachineReader machine, JvmGauges jvm) {
        this.server = server;
        this.machine = machine;
        this.jvm = jvm;
    }

    /** The monitor of one run: the settings' server and JVM gauges, and this machine. */
    public static ResourceMonitor of(RunSettings settings) {
        return new ResourceMonitor(settings.server(), MachineReader.system(), settings.jvm());
    }

    /** Call once, when the measurement starts. */
    public void measureStarts() {
        serverStart = serverCounters();
        machineStart = machineCounters();
        JvmReading j = jvmReading();
        gcStart = j == null ? null : j.gcSeconds();
    }

    /** Call at every interval boundary of the measurement: samples the JVM heap. */
    public void sample() {
        JvmReading j = jvmReading();
        if (j != null && j.heapUsedBytes() != null) {
            heapSamples.add(j.heapUsedBytes());
        }
        if (j != null && j.heapMaxBytes() != null) {
            heapMax = j.heapMaxBytes();
        }
    }

    /**
     * Call once, when the measurement ends.
     *
     * @param ops successful operations of the measurement
     * @param seconds length of the measurement
     */
    public BenchResult.Resources finish(long ops, double seconds) {
        ProcessCounters serverEnd = serverStart == null ? null : serverCounters();
        MachineCounters machineEnd = machineStart == null ? null : machineCounters();
        JvmReading jvmEnd = jvm == null ? null : jvmReading();
        BenchResult.ProcessUse serverUse = serverEnd == null ? null : processUse(serverStart, serverEnd, seconds);
        BenchResult.MachineUse machineUse = machineEnd == null ? null : machineUse(machineStart, machineEnd, seconds);
        notes.addAll(serverEnd == null ? List.of() : serverEnd.notes());
        notes.addAll(machineEnd == null ? List.of() : machineEnd.notes());
        Double opsPerCpu = null;
        if (serverUse != null) {
            double cpu = serverUse.userCpuSeconds() + serverUse.systemCpuSeconds();
            if (cpu > 0) {
                opsPerCpu = ops / cpu;
            } else {
                notes.add("the server used no measurable CPU (clock-tick resolution) during the measurement: "
                        + "no operations per server CPU-second");
            }
        }
        BenchResult.JvmUse jvmUse = null;
        if (jvm != null) {
            Double gc = gcStart == null || jvmEnd == null || jvmEnd.gcSeconds() == null
                    ? null
                    : jvmEnd.gcSeconds() - gcStart;
            if (gc == null) {
                notes.add(
                        jvm.source()
                                + " gives no GC time (no larch_jvm_gc_seconds, jvm_gc_collection_seconds or jvm_gc_pause_seconds)");
            }
            jvmUse = new BenchResult.JvmUse(
                    jvm.source(),
                    heapSamples.isEmpty()
                            ? null
                            : (long) heapSamples.stream()
                                    .mapToLong(Long::longValue)
                                    .average()
                                    .orElseThrow(),
                    heapSamples.isEmpty()
                            ? null
                            : heapSamples.stream()
                                    .mapToLong(Long::longValue)
                                    .max()
                                    .orElseThrow(),
                    heapMax,
                    gc);
        }
        return new BenchResult.Resources(opsPerCpu, serverUse, machineUse, jvmUse, List.copyOf(notes));
    }

    static BenchResult.ProcessUse processUse(ProcessCounters a, ProcessCounters b, double seconds) {
        double cpu = (b.cpuNanos() - a.cpuNanos()) / 1e9;
        ProcessCounters.Switches switches = b.switchesSince(a);
        return new BenchResult.ProcessUse(
                (b.userNanos() - a.userNanos()) / 1e9,
                (b.systemNanos() - a.systemNanos()) / 1e9,
                seconds > 0 ? cpu / seconds / HarnessCpu.cores() * 100 : 0,
                switches == null ? null : switches.voluntary(),
                switches == null ? null : switches.involuntary(),
                delta(a.diskReadBytes(), b.diskReadBytes()),
                delta(a.diskWriteBytes(), b.diskWriteBytes()),
                delta(a.netReceivedBytes(), b.netReceivedBytes()),
                delta(a.netSentBytes(), b.netSentBytes()));
    }

    static BenchResult.MachineUse machineUse(MachineCounters a, MachineCounters b, double seconds) {
        long user = b.userNanos() - a.userNanos();
        long system = b.systemNanos() - a.systemNanos();
        long iowait = b.iowaitNanos() - a.iowaitNanos();
        long all = user + system + iowait + (b.idleNanos() - a.idleNanos());
        return new BenchResult.MachineUse(
                b.cores(),
                user / 1e9,
                system / 1e9,
                iowait / 1e9,
                all > 0 ? (user + system) * 100.0 / all : 0,
                b.contextSwitches() - a.contextSwitches(),
                delta(a.diskReadBytes(), b.diskReadBytes()),
                delta(a.diskWriteBytes(), b.diskWriteBytes()),
                delta(a.netReceivedBytes(), b.netReceivedBytes()),
                delta(a.netSentBytes(), b.netSentBytes()));
    }

    private static Long delta(Long a, Long b) {
        return a == null || b == null ? null : b - a;
    }

    private ProcessCounters serverCounters() {
        if (server == null) {
            return null;
        }
        try {
            return server.counters();
        } catch (IOException | RuntimeException e) {
            notes.add("server process " + server.pid() + " unreadable (gone?): " + e.getMessage());
            return null;
        }
    }

    private MachineCounters machineCounters() {
        try {
            return machine.read();
        } catch (IOException | RuntimeException e) {
            notes.add("machine counters unreadable (/proc/stat): " + e.getMessage());
            return null;
        }
    }

    private JvmReading jvmReading() {
        if (jvm == null) {
            return null;
        }
        try {
            return jvm.read();
        } catch (IOException | RuntimeException e) {
            notes.add(jvm.source() + " unreadable: " + e.getMessage());
            return null;
        }
    }
}
