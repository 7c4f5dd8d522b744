package dev.larch.server.auth;

import java.net.InetAddress;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SuspectChecksTest {
    private static InetAddress address(int last) throws Exception {
        return InetAddress.getByAddress(new byte[] {10, 0, 0, (byte) last});
    }

    @Test
    void eachAddressHasItsBoundAndAllTogetherTheTotal() throws Exception {
        SuspectChecks checks = new SuspectChecks(2, 3);
        assertTrue(checks.tryAcquire(address(1)));
        assertTrue(checks.tryAcquire(address(1)));
        assertFalse(checks.tryAcquire(address(1)), "per address");
        assertTrue(checks.tryAcquire(address(2)));
        assertFalse(checks.tryAcquire(address(3)), "in total");
        checks.release(address(1));
        assertTrue(checks.tryAcquire(address(3)));
        checks.release(address(1));
        checks.release(address(2));
        checks.release(address(3));
        assertEquals(0, checks.running());
    }
}
