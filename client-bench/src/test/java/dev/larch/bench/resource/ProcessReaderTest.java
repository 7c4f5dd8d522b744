package dev.larch.bench.resource;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProcessReaderTest {
    /** A stat line whose command name holds spaces and a ')': utime 250, stime 70 ticks. */
    static final String STAT = "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 9000 0 3 0 250 70 0 0 20 0 40 0 "
            + "12345 5000000000 120000 18446744073709551615 1 1 0 0 0 0 0 0 16800975 0 0 0 17 1 0 0 0 0 0\n";

    static final String STATUS = "Name:\tjava\nState:\tS (sleeping)\nVmRSS:\t  204800 kB\nThreads:\t2\n"
            + "voluntary_ctxt_switches:\t2\nnonvoluntary_ctxt_switches:\t1\n";

    /** One thread's status; switches are per thread in Linux. */
    static String threadStatus(long voluntary, long involuntary) {
        return "Name:\tjava\nvoluntary_ctxt_switches:\t" + voluntary + "\nnonvoluntary_ctxt_switches:\t" + involuntary
                + "\n";
    }

    static final String IO = "rchar: 6976\nwchar: 10\nsyscr: 10\nsyscw: 1\nread_bytes: 8192\nwrite_bytes: 40960\n"
            + "cancelled_write_bytes: 0\n";

    static final String NET_DEV = "Inter-|   Receive                                                |  Transmit\n"
            + " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n"
            + "    lo: 1000 10    0    0    0     0          0         0 1000 10    0    0    0     0       0          0\n"
            + "  eth0: 500    4    0    0    0     0          0         0  300    3    0    0    0     0       0          0\n";

    @Test
    void statFieldsResumeAfterTheLastParenthesisOfTheCommandName() {
        assertArrayEquals(new long[] {250, 70}, ProcessReader.parseStat(STAT));
        assertThrows(IllegalArgumentException.class, () -> ProcessReader.parseStat("4242 java S 1"));
    }

    @Test
    void readsEveryCounterFromSyntheticProc() throws IOException {
        ProcessReader reader = new ProcessReader(
                FakeProc.of(Map.of(
                        "4242/stat",
                        STAT,
                        "4242/status",
                        STATUS,
                        "4242/task/4242/status",
                        threadStatus(2, 1),
                        "4242/task/4250/status",
                        threadStatus(1198, 34),
                        "4242/io",
                        IO,
                        "4242/net/dev",
                        NET_DEV)),
                4242,
                100);
        ProcessCounters c = reader.read();
        assertEquals(2_500_000_000L, c.userNanos());
        assertEquals(700_000_000L, c.systemNanos());
        assertEquals(1200L, c.voluntaryContextSwitches(), "summed over the threads, not the first thread's");
        assertEquals(35L, c.involuntaryContextSwitches());
        assertEquals(204800L, c.rssKb());
        assertEquals(8192L, c.diskReadBytes());
        assertEquals(40960L, c.diskWriteBytes());
        assertEquals(1500L, c.netReceivedBytes());
        assertEquals(1300L, c.netSentBytes());
        assertTrue(c.notes().isEmpty(), c.notes().toString());
    }

    @Test
    void anUnreadableIoFileGivesNullDiskBytesAndANoteNotAFailure() throws IOException {
        ProcessReader reader = new ProcessReader(
                FakeProc.of(Map.of(
                        "7/stat",
                        STAT,
                        "7/status",
                        STATUS,
                        "7/task/7/status",
                        threadStatus(1200, 35),
                        "7/io",
                        FakeProc.DENIED,
                        "7/net/dev",
                        NET_DEV)),
                7,
                100);
        ProcessCounters c = reader.read();
        assertNull(c.diskReadBytes());
        assertNull(c.diskWriteBytes());
        assertEquals(1200L, c.voluntaryContextSwitches());
        assertEquals(1, c.notes().size());
        assertTrue(
                c.notes().get(0).contains("/proc/7/io unreadable: permission denied"),
                c.notes().get(0));
    }

    @Test
    void aGoneProcessFailsTheReading() {
        ProcessReader reader = new ProcessReader(FakeProc.of(Map.of()), 9, 100);
        assertThrows(NoSuchFileException.class, reader::read);
    }

    /** Spins until this thread has used {@code millis} of CPU (wall time says little on a shared machine). */
    static long busyCpu(long millis) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long until = threads.getCurrentThreadCpuTime() + millis * 1_000_000L;
        long sink = 0;
        while (threads.getCurrentThreadCpuTime() < until) {
            for (int i = 0; i < 10_000; i++) {
                sink += Long.numberOfTrailingZeros(sink + i);
            }
        }
        return sink;
    }

    @Test
    void ownProcessCountersMoveWithCpuWorkSleepsAndWrites(@TempDir Path dir) throws IOException, InterruptedException {
        ProcessReader reader =
                new ProcessReader(ProcSource.system(), ProcessHandle.current().pid(), ClockTicks.perSecond());
        ProcessCounters before = reader.read();
        long sink = busyCpu(200);
        long mineBeforeSleeps = ownVoluntarySwitches();
        for (int i = 0; i < 5; i++) {
            Thread.sleep(5); // in this live thread: a thread that ends takes its switches along
        }
        long mine = ownVoluntarySwitches();

        try (FileChannel ch =
                FileChannel.open(dir.resolve("written"), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.allocate(1 << 20));
            ch.force(true); // down to the disk, so write_bytes counts it
        }
        ProcessCounters after = reader.read();
        assertTrue(sink != 42, "keep the busy loop");
        assertTrue(after.cpuNanos() - before.cpuNanos() >= 150_000_000L, "200 ms of CPU work shows as CPU time");
        assertTrue(mine > mineBeforeSleeps, "sleeping switches");
        // Another JVM thread may end between the two readings and take its switches along, so the
        // total need not grow; it is a sum over live threads, so it holds at least this thread's.
        assertTrue(after.voluntaryContextSwitches() >= mine, after.voluntaryContextSwitches() + " < " + mine);
        assertNotNull(after.diskWriteBytes(), after.notes().toString());
        assertTrue(after.diskWriteBytes() - before.diskWriteBytes() >= 1 << 20, "1 MB forced to disk");
        assertNotNull(after.netReceivedBytes());
        assertTrue(after.rssKb() > 0);
    }

    /** This thread's voluntary context switches, from /proc/thread-self/status. */
    private static long ownVoluntarySwitches() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/thread-self/status"))) {
            if (line.startsWith("voluntary_ctxt_switches:")) {
                return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        throw new IllegalStateException("no voluntary_ctxt_switches in /proc/thread-self/status");
    }
}
