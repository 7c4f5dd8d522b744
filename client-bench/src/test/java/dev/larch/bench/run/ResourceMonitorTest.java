package dev.larch.bench.run;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import dev.larch.bench.report.BenchResult;
import dev.larch.bench.resource.FakeProc;
import dev.larch.bench.resource.JvmGauges;
import dev.larch.bench.resource.JvmReading;
import dev.larch.bench.resource.MachineCounters;
import dev.larch.bench.resource.MachineReader;
import dev.larch.bench.resource.ProcessCounters;
import dev.larch.bench.resource.ProcessCounters.Switches;
import dev.larch.bench.resource.ProcessReader;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ResourceMonitorTest {
    /** Heap 100, 300, 200 MB at successive readings; GC time 1 s more per reading. */
    private static final class FakeJvm implements JvmGauges {
        private final AtomicInteger reads = new AtomicInteger();

        @Override
        public String source() {
            return "fake";
        }

        @Override
        public JvmReading read() {
            int n = reads.getAndIncrement();
            long[] heap = {100, 300, 200, 200};
            return new JvmReading(heap[Math.min(n, 3)] << 20, 1L << 30, (double) n);
        }
    }

    /** Spins until this thread has used {@code millis} of CPU (wall time says little on a shared machine). */
    private static void busy(long millis) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long until = threads.getCurrentThreadCpuTime() + millis * 1_000_000L;
        long sink = 0;
        while (threads.getCurrentThreadCpuTime() < until) {
            for (int i = 0; i < 10_000; i++) {
                sink += Long.numberOfTrailingZeros(sink + i);
            }
        }
        assertTrue(sink != 42);
    }

    @Test
    void opsPerServerCpuSecondComesFromTheServersCpuDuringTheMeasurement() {
        ServerProcess self = ServerProcess.of(ProcessHandle.current().pid());
        ResourceMonitor monitor = new ResourceMonitor(self, MachineReader.system(), new FakeJvm());
        monitor.measureStarts();
        busy(200);
        monitor.sample();
        monitor.sample();
        BenchResult.Resources r = monitor.finish(30_000, 0.3);

        BenchResult.ProcessUse server = r.server();
        double cpu = server.userCpuSeconds() + server.systemCpuSeconds();
        assertTrue(cpu >= 0.1, "cpu " + cpu);
        assertEquals(30_000 / cpu, r.opsPerServerCpuSecond(), 1e-6);
        assertNotNull(server.voluntaryContextSwitches());
        assertNotNull(r.machine());
        assertTrue(r.machine().userCpuSeconds() + r.machine().systemCpuSeconds() > 0);
        BenchResult.JvmUse jvm = r.serverJvm();
        assertEquals(250L << 20, jvm.heapUsedMeanBytes(), "mean of the two samples in the measurement");
        assertEquals(300L << 20, jvm.heapUsedMaxBytes());
        assertEquals(1L << 30, jvm.heapMaxBytes());
        assertEquals(3.0, jvm.gcSeconds(), 1e-9, "GC seconds between the start and the end reading");
    }

    @Test
    void withoutAServerThereIsNoOpsPerServerCpuSecondButTheMachineIsStillMeasured() {
        ResourceMonitor monitor = new ResourceMonitor(null, MachineReader.system(), null);
        monitor.measureStarts();
        BenchResult.Resources r = monitor.finish(1000, 0.1);
        assertNull(r.opsPerServerCpuSecond());
        assertNull(r.server());
        assertNull(r.serverJvm());
        assertNotNull(r.machine());
    }

    @Test
    void aServerThatVanishesLeavesANoteNotAFailure() {
        AtomicInteger reads = new AtomicInteger();
        ProcessReader vanishing = new ProcessReader(
                FakeProc.dynamic(relative ->
                        reads.getAndIncrement() > 0 ? null : "1 (x) S 1 1 1 0 -1 0 0 0 0 0 100 10 0 0 20 0 1 0 1 1 1"),
                1,
                100);
        ResourceMonitor monitor = new ResourceMonitor(new ServerProcess(vanishing), MachineReader.system(), null);
        monitor.measureStarts();
        BenchResult.Resources r = monitor.finish(1000, 1);
        assertNull(r.server());
        assertNull(r.opsPerServerCpuSecond());
        assertTrue(
                r.notes().stream().anyMatch(n -> n.startsWith("server process 1 unreadable")),
                r.notes().toString());
    }

    @Test
    void deltasSubtractTheStartFromTheEndAndKeepUnknownsUnknown() {
        ProcessCounters a = new ProcessCounters(
                1_000_000_000L,
                500_000_000L,
                10L,
                1L,
                100L,
                null,
                0L,
                5L,
                6L,
                List.of(),
                Map.of(1L, new Switches(5, 1), 3L, new Switches(5, 0)));
        ProcessCounters b = new ProcessCounters(
                3_000_000_000L,
                1_500_000_000L,
                25L,
                4L,
                100L,
                null,
                4096L,
                105L,
                56L,
                List.of(),
                Map.of(1L, new Switches(15, 3), 2L, new Switches(10, 1)));
        BenchResult.ProcessUse u = ResourceMonitor.processUse(a, b, 1);
        assertEquals(2.0, u.userCpuSeconds(), 1e-9);
        assertEquals(1.0, u.systemCpuSeconds(), 1e-9);
        assertEquals(300.0 / HarnessCpu.cores(), u.cpuPercentOfMachine(), 1e-9);
        // thread 1 switched 10 more times, thread 2 started and switched 10 times, thread 3 ended:
        // 20, where the difference of the totals would say 15
        assertEquals(20L, u.voluntaryContextSwitches());
        assertEquals(3L, u.involuntaryContextSwitches());
        assertNull(u.diskReadBytes());
        assertEquals(4096L, u.diskWriteBytes());
        assertEquals(100L, u.netReceivedBytes());

        MachineCounters m1 = new MachineCounters(2, 0, 0, 0, 0, 100, 0L, 0L, 0L, 0L, List.of());
        MachineCounters m2 = new MachineCounters(
                2, 1_000_000_000L, 500_000_000L, 250_000_000L, 250_000_000L, 350, 512L, 1024L, 10L, 20L, List.of());
        BenchResult.MachineUse mu = ResourceMonitor.machineUse(m1, m2, 1);
        assertEquals(75.0, mu.busyPercent(), 1e-9);
        assertEquals(250, mu.contextSwitches());
        assertEquals(0.25, mu.iowaitSeconds(), 1e-9);
        assertEquals(1024L, mu.diskWriteBytes());
    }

    @Test
    void aJvmThatStopsAnsweringLosesItsGcFigureWithANote() {
        JvmGauges failing = new JvmGauges() {
            @Override
            public String source() {
                return "http://x/metrics";
            }

            @Override
            public JvmReading read() throws IOException {
                throw new IOException("connection refused");
            }
        };
        ResourceMonitor monitor = new ResourceMonitor(null, MachineReader.system(), failing);
        monitor.measureStarts();
        monitor.sample();
        BenchResult.Resources r = monitor.finish(10, 1);
        assertNull(r.serverJvm().gcSeconds());
        assertNull(r.serverJvm().heapUsedMaxBytes());
        assertTrue(
                r.notes().contains("http://x/metrics unreadable: connection refused"),
                r.notes().toString());
    }
}
