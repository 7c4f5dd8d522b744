package dev.larch.server.cli;

import java.util.Properties;

import io.netty.util.ResourceLeakDetector;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LeakTrackingTest {
    @Test
    void aLevelAskedForUnderEitherNameIsKept() {
        ResourceLeakDetector.Level before = ResourceLeakDetector.getLevel();
        try {
            for (String name : new String[] {LeakTracking.LEVEL, LeakTracking.LEGACY_LEVEL}) {
                Properties asked = new Properties();
                asked.setProperty(name, "paranoid");
                ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
                assertTrue(LeakTracking.asked(asked), name);
                LeakTracking.offUnlessAsked(asked);
                assertEquals(ResourceLeakDetector.Level.PARANOID, ResourceLeakDetector.getLevel(), name);
            }
        } finally {
            ResourceLeakDetector.setLevel(before);
        }
    }

    @Test
    void withoutALevelAskedForTrackingIsOff() {
        ResourceLeakDetector.Level before = ResourceLeakDetector.getLevel();
        try {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.SIMPLE);
            Properties none = new Properties();
            assertFalse(LeakTracking.asked(none));
            LeakTracking.offUnlessAsked(none);
            assertEquals(ResourceLeakDetector.Level.DISABLED, ResourceLeakDetector.getLevel());
        } finally {
            ResourceLeakDetector.setLevel(before);
        }
    }
}
