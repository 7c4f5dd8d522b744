package dev.larch.server;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProgressTest {
    /** A clock the test moves by hand. */
    private static final class FakeClock {
        long nanos = 1_000_000_000L;

        void advanceSeconds(double seconds) {
            nanos += (long) (seconds * 1e9);
        }
    }

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    private final FakeClock clock = new FakeClock();

    private String output() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aLineSaysDoneTotalPercentRateAndTimeLeft() {
        assertEquals(
                "larch: verified entries 120,000 of 1,000,000 (12%), 40,000/s, about 22 s left",
                Progress.format("verified entries", 120_000, 1_000_000, 3.0));
        assertEquals(
                "larch: imported entries 1,000,000 of 1,000,000 (100%), 50,000/s",
                Progress.format("imported entries", 1_000_000, 1_000_000, 20.0));
    }

    @Test
    void withoutATotalThereIsNoPercentageNorTimeLeft() {
        assertEquals("larch: copied MiB 512, 128/s", Progress.format("copied MiB", 512, 0, 4.0));
    }

    @Test
    void nothingDoneYetHasNoRateToTellTimeLeftFrom() {
        assertEquals(
                "larch: built entries 0 of 10 (0%), 0/s, time left unknown",
                Progress.format("built entries", 0, 10, 0));
    }

    @Test
    void timeLeftReadsInSecondsMinutesOrHours() {
        assertEquals("59 s", Progress.duration(59));
        assertEquals("3 min 05 s", Progress.duration(185));
        assertEquals("2 h 07 min", Progress.duration(2 * 3600 + 7 * 60 + 30));
    }

    @Test
    void offATerminalAPlainLineComesEveryTenSecondsOfWork() {
        Progress p = new Progress(out, "verified entries", 100_000, false, () -> clock.nanos);
        for (int i = 0; i < 10_000; i++) {
            p.step();
        }
        assertEquals("", output(), "nothing before ten seconds");
        clock.advanceSeconds(10);
        p.advanceTo(20_000);
        clock.advanceSeconds(5);
        p.advanceTo(30_000);
        clock.advanceSeconds(5);
        p.advanceTo(40_000);
        p.finish();
        String[] lines = output().split("\n");
        assertEquals(2, lines.length, output());
        assertEquals("larch: verified entries 20,000 of 100,000 (20%), 2,000/s, about 40 s left", lines[0]);
        assertEquals("larch: verified entries 40,000 of 100,000 (40%), 2,000/s, about 30 s left", lines[1]);
        assertTrue(!output().contains("\r"), "no carriage returns in a log");
    }

    @Test
    void onATerminalOneLineIsRewrittenAndEndsWithALineBreak() {
        Progress p = new Progress(out, "imported entries", 0, true, () -> clock.nanos);
        clock.advanceSeconds(1);
        p.advanceTo(1_000_000);
        clock.advanceSeconds(1);
        p.advanceTo(1_500);
        p.finish();
        assertEquals(
                "\rlarch: imported entries 1,000,000, 1,000,000/s"
                        // Ten spaces wipe the end of the longer line before.
                        + "\rlarch: imported entries 1,500, 750/s" + " ".repeat(10)
                        + "\rlarch: imported entries 1,500, 750/s" + System.lineSeparator(),
                output());
    }

    @Test
    void workThatEndsQuicklyPrintsNothingAndSilenceIsSilent() {
        Progress quick = new Progress(out, "verified entries", 10, true, () -> clock.nanos);
        for (int i = 0; i < 10; i++) {
            quick.step();
        }
        quick.finish();
        assertEquals("", output());
        Progress silent = new Progress(null, "verified entries", 10, false, () -> clock.nanos);
        clock.advanceSeconds(3600);
        silent.advanceTo(5);
        silent.finish();
    }
}
