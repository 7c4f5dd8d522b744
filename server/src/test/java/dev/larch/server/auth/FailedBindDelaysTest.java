package dev.larch.server.auth;

import java.net.InetAddress;
import java.util.concurrent.TimeUnit;

import org.apache.directory.api.ldap.model.exception.LdapInvalidDnException;
import org.apache.directory.api.ldap.model.name.Dn;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FailedBindDelaysTest {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    private long now = 1_000_000_000L;
    private final FailedBindDelays delays = new FailedBindDelays(100, 1_000, () -> now);

    private static Dn dn(String name) throws LdapInvalidDnException {
        return new Dn(name);
    }

    private static InetAddress address(int last) throws Exception {
        return InetAddress.getByAddress(new byte[] {10, 0, 0, (byte) last});
    }

    @Test
    void failuresOnOneDnDoubleTheDelayUpToTheMaximum() throws Exception {
        Dn alice = dn("uid=alice");
        long[] expected = {100, 200, 400, 800, 1_000, 1_000};
        for (long millis : expected) {
            assertEquals(millis * MS, delays.failed(alice, null));
        }
    }

    @Test
    void aNewAttemptWaitsForWhatTheLastFailureStillOwes() throws Exception {
        Dn alice = dn("uid=alice");
        delays.failed(alice, null);
        delays.failed(alice, null); // owes 200 ms
        now += 50 * MS;
        assertEquals(150 * MS, delays.nanosBeforeAttempt(alice, null));
        now += 150 * MS;
        assertEquals(0, delays.nanosBeforeAttempt(alice, null));
        assertEquals(0, delays.nanosBeforeAttempt(dn("uid=bob"), null));
    }

    @Test
    void dnsAreComparedNormalized() throws Exception {
        delays.failed(dn("uid=alice"), null);
        assertEquals(200 * MS, delays.failed(dn("UID=alice"), null));
    }

    @Test
    void anAddressPaysOnlyPastItsAllowanceAndAcrossDns() throws Exception {
        InetAddress client = address(1);
        for (int i = 0; i < FailedBindDelays.ADDRESS_ALLOWANCE; i++) {
            // each DN fails once: 100 ms from the DN, nothing yet from the address
            assertEquals(100 * MS, delays.failed(dn("uid=user" + i), client));
        }
        assertEquals(100 * MS, delays.failed(dn("uid=next"), client));
        assertEquals(200 * MS, delays.failed(dn("uid=another"), client));
        assertEquals(400 * MS, delays.failed(dn("uid=yet-another"), client));
        assertEquals(400 * MS, delays.nanosBeforeAttempt(dn("uid=fresh"), client));
        assertEquals(0, delays.nanosBeforeAttempt(dn("uid=fresh"), address(2)));
    }

    @Test
    void successClearsTheDnButNotTheAddress() throws Exception {
        Dn alice = dn("uid=alice");
        InetAddress client = address(1);
        for (int i = 0; i < FailedBindDelays.ADDRESS_ALLOWANCE + 2; i++) {
            delays.failed(alice, client);
        }
        delays.succeeded(alice);
        assertEquals(200 * MS, delays.nanosBeforeAttempt(alice, client));
        assertEquals(0, delays.nanosBeforeAttempt(alice, address(2)));
        assertEquals(100 * MS, delays.failed(alice, address(2)));
    }

    @Test
    void aQuietPeriodForgetsFailures() throws Exception {
        Dn alice = dn("uid=alice");
        delays.failed(alice, null);
        delays.failed(alice, null);
        delays.failed(alice, null);
        now += TimeUnit.SECONDS.toNanos(FailedBindDelays.QUIET_PERIOD_SECONDS) + 1;
        assertEquals(0, delays.nanosBeforeAttempt(alice, null));
        assertEquals(100 * MS, delays.failed(alice, null));
    }

    @Test
    void sprayingRandomDnsCannotGrowMemoryPastTheBound() throws Exception {
        InetAddress client = address(1);
        for (int i = 0; i < 3 * FailedBindDelays.MAX_TRACKED; i++) {
            delays.failed(dn("uid=random" + i), client);
        }
        assertTrue(delays.tracked() <= FailedBindDelays.MAX_TRACKED + 1, "tracked " + delays.tracked());
        // the sprayer's address is the most recent entry of its map, so it is still paying
        assertEquals(1_000 * MS, delays.nanosBeforeAttempt(dn("uid=someone"), client));
    }

    @Test
    void zeroDelayTurnsTheSlowingOff() throws Exception {
        FailedBindDelays off = new FailedBindDelays(0, 0, () -> now);
        for (int i = 0; i < 20; i++) {
            assertEquals(0, off.failed(dn("uid=alice"), address(1)));
        }
        assertEquals(0, off.nanosBeforeAttempt(dn("uid=alice"), address(1)));
    }
}
