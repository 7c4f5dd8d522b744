package dev.larch.jmh;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LauncherArgsTest {

    @Test
    void ourOptionsAreTakenAndTheRestGoesToJmh() {
        LauncherArgs a = LauncherArgs.parse("--compare", "base.json", "--threshold", "5%", "-f", "2", "Store.*");
        assertEquals(Path.of("base.json"), a.baseline());
        assertEquals(5.0, a.thresholdPercent());
        assertEquals(List.of("-f", "2", "Store.*"), a.jmhArgs());
        assertTrue(a.runsSuite());
        assertEquals(Path.of("jmh-result.json"), a.effectiveResultFile());
    }

    @Test
    void againstComparesWithoutRunning() {
        LauncherArgs a = LauncherArgs.parse("--compare", "base.json", "--against", "new.json");
        assertFalse(a.runsSuite());
        assertEquals(Path.of("new.json"), a.against());
        assertEquals(10.0, a.thresholdPercent());
    }

    @Test
    void quickRunsWriteTheirOwnFileUnlessTold() {
        assertEquals(
                Path.of("jmh-quick-result.json"), LauncherArgs.parse("--quick").effectiveResultFile());
        assertEquals(
                Path.of("/tmp/q.json"),
                LauncherArgs.parse("--quick", "-rff", "/tmp/q.json").effectiveResultFile());
        assertNull(LauncherArgs.parse().baseline());
    }

    @Test
    void recordingWritesTheModesCommittedBaselineUnlessTold() {
        LauncherArgs full = LauncherArgs.parse("--record-baseline");
        assertTrue(full.recordBaseline());
        assertTrue(full.runsSuite());
        assertEquals(Path.of("jmh/baseline/baseline.json"), full.effectiveResultFile());
        assertEquals(
                Path.of("jmh/baseline/quick-baseline.json"),
                LauncherArgs.parse("--quick", "--record-baseline").effectiveResultFile());
        assertEquals(
                Path.of("/tmp/b.json"),
                LauncherArgs.parse("--record-baseline", "-rff", "/tmp/b.json").effectiveResultFile());
        assertFalse(LauncherArgs.parse("--quick").recordBaseline());
    }

    @Test
    void mistakesAreExplained() {
        assertThrows(
                IllegalArgumentException.class, () -> LauncherArgs.parse("--record-baseline", "--compare", "b.json"));
        assertThrows(IllegalArgumentException.class, () -> LauncherArgs.parse("--against", "new.json"));
        assertThrows(IllegalArgumentException.class, () -> LauncherArgs.parse("--compare"));
        assertThrows(IllegalArgumentException.class, () -> LauncherArgs.parse("--compare", "b", "--threshold", "-3"));
        assertThrows(IllegalArgumentException.class, () -> LauncherArgs.parse("--compare", "b", "--threshold", "ten"));
    }
}
