package dev.larch.bench.resource;

import java.io.IOException;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MachineReaderTest {
    static final String STAT = "cpu  1000 50 300 8000 200 10 20 0 0 0\n"
            + "cpu0 500 25 150 4000 100 5 10 0 0 0\n"
            + "cpu1 500 25 150 4000 100 5 10 0 0 0\n"
            + "intr 12345 0 0\nctxt 987654\nbtime 1700000000\nprocesses 4000\n";

    static final String DISKSTATS = "   7       0 loop0 100 0 800 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
            + " 253       0 vda 2000 10 40000 900 3000 20 60000 1200 0 1500 2100 0 0 0 0 0 0\n"
            + " 253       1 vda1 1990 10 39000 890 2990 20 59000 1190 0 1490 2080 0 0 0 0 0 0\n";

    @Test
    void cpuStatAddsNiceToUserAndInterruptsToSystem() {
        MachineReader.CpuStat s = MachineReader.CpuStat.parse(STAT);
        assertEquals(2, s.cores());
        assertEquals(1050, s.user());
        assertEquals(330, s.system());
        assertEquals(200, s.iowait());
        assertEquals(8000, s.idle());
        assertEquals(987654, s.contextSwitches());
        assertThrows(IllegalArgumentException.class, () -> MachineReader.CpuStat.parse("ctxt 1\n"));
    }

    @Test
    void diskstatsCountsOnlyTheChosenDevicesInBytes() {
        assertArrayEquals(
                new long[] {40000 * 512L, 60000 * 512L},
                MachineReader.parseDiskstats(DISKSTATS, name -> name.equals("vda")));
        assertArrayEquals(new long[] {0, 0}, MachineReader.parseDiskstats(DISKSTATS, name -> false));
    }

    @Test
    void readsTheMachineFromSyntheticProcAndNotesWhatIsMissing() throws IOException {
        Map<String, String> files = Map.of("stat", STAT, "diskstats", DISKSTATS, "net/dev", ProcessReaderTest.NET_DEV);
        MachineCounters c = new MachineReader(FakeProc.of(files), "vda"::equals, 100).read();
        assertEquals(10_500_000_000L, c.userNanos());
        assertEquals(3_300_000_000L, c.systemNanos());
        assertEquals(40000 * 512L, c.diskReadBytes());
        assertEquals(1500L, c.netReceivedBytes());
        assertTrue(c.notes().isEmpty());

        MachineCounters noDisks = new MachineReader(FakeProc.of(Map.of("stat", STAT)), n -> true, 100).read();
        assertNull(noDisks.diskReadBytes());
        assertNull(noDisks.netSentBytes());
        assertEquals(2, noDisks.notes().size(), noDisks.notes().toString());
    }

    @Test
    void theRealMachineCountsForward() throws IOException, InterruptedException {
        MachineReader reader = MachineReader.system();
        MachineCounters a = reader.read();
        Thread.sleep(50);
        MachineCounters b = reader.read();
        assertTrue(a.cores() >= 1);
        assertTrue(b.contextSwitches() > a.contextSwitches());
        assertTrue(b.userNanos() + b.systemNanos() + b.idleNanos() > a.userNanos() + a.systemNanos() + a.idleNanos());
        assertTrue(b.netReceivedBytes() >= a.netReceivedBytes());
        assertTrue(b.diskWriteBytes() >= a.diskWriteBytes());
    }
}
