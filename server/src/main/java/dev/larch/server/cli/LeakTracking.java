package dev.larch.server.cli;

import java.util.Properties;

import io.netty.util.ResourceLeakDetector;

/**
 * Netty's buffer leak tracking for a serving server: off unless the operator asks for it. Left to
 * Netty, it tracks one buffer in 128 and records a stack trace for each: 1.2% of the server's CPU
 * on the addressing mix at 1M entries (async-profiler, itimer). The tests ask for it, as an operator
 * may, with {@code -Dio.netty.leakDetection.level} (through LARCH_JAVA_OPTS).
 */
final class LeakTracking {
    static final String LEVEL = "io.netty.leakDetection.level";
    /** The name older Netty versions read, which Netty 4.2 still honours. */
    static final String LEGACY_LEVEL = "io.netty.leakDetectionLevel";

    private LeakTracking() {}

    /** Whether {@code properties} ask for a level of their own. */
    static boolean asked(Properties properties) {
        return properties.getProperty(LEVEL) != null || properties.getProperty(LEGACY_LEVEL) != null;
    }

    /** Turns tracking off for this JVM unless {@code properties} ask for a level. */
    static void offUnlessAsked(Properties properties) {
        if (!asked(properties)) {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
    }
}
