package dev.larch.bench.resource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/** USER_HZ, the unit of CPU times in {@code /proc}: asked of {@code getconf} once per JVM. */
public final class ClockTicks {
    private static final long PER_SECOND = read();

    private ClockTicks() {}

    /** Clock ticks per second; 100 (the Linux default) when getconf cannot say. */
    public static long perSecond() {
        return PER_SECOND;
    }

    private static long read() {
        try {
            Process p = new ProcessBuilder("getconf", "CLK_TCK")
                    .redirectErrorStream(true)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
            if (p.waitFor(2, TimeUnit.SECONDS) && p.exitValue() == 0) {
                return Long.parseLong(out);
            }
        } catch (IOException | RuntimeException e) {
            // fall through to the default
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 100;
    }
}
