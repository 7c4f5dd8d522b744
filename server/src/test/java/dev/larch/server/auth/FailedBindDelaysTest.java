package dev.larch.server.auth;

import java.net.InetAddress;
import java.util.concurrent.TimeUnit;

import org.apache.directory.api.ldap.model.exception.LdapInvalidDnException;
import org.apache.directory.api.ldap.model.name.Dn;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
    void failuresFromOneAddressDelayOnlyTheirOwnAccountsNotTheNeighboursBehindIt() throws Exception {
        InetAddress nat = address(1);
        for (int i = 0; i < 12; i++) {
            // a guesser behind the NAT sprays DNs: each pays its own pair's first delay
            assertEquals(100 * MS, delays.failed(dn("uid=user" + i), nat));
        }
        // before: the address owed 400 ms, so every user behind it waited; now nobody else does
        assertEquals(0, delays.nanosBeforeAttempt(dn("uid=colleague"), nat));
        assertEquals(100 * MS, delays.failed(dn("uid=colleague"), nat));
        // ... but the address is suspect, which bounds its hash work (SuspectChecks)
        assertTrue(delays.suspect(nat));
        assertFalse(delays.suspect(address(2)));
    }

    @Test
    void anAccountPaysFromAnyAddressOnlyPastItsAllowanceAndItsPairFromTheFirstFailure() throws Exception {
        Dn alice = dn("uid=alice");
        for (int i = 0; i < FailedBindDelays.ACCOUNT_ALLOWANCE; i++) {
            delays.failed(alice, address(10 + i));
        }
        assertEquals(0, delays.nanosBeforeAttempt(alice, address(2)), "the owner elsewhere is not slowed yet");
        assertEquals(100 * MS, delays.nanosBeforeAttempt(alice, address(10)));
        assertEquals(100 * MS, delays.failed(alice, address(3)), "the 11th failure of the account");
        assertEquals(100 * MS, delays.nanosBeforeAttempt(alice, address(2)));
    }

    @Test
    void ipv6ClientsAreCountedPerPrefix() throws Exception {
        Dn alice = dn("uid=alice");
        InetAddress one = InetAddress.getByName("2001:db8:1:2::1");
        InetAddress sameSlash64 = InetAddress.getByName("2001:db8:1:2:ffff::9");
        InetAddress otherSlash64 = InetAddress.getByName("2001:db8:1:3::1");
        delays.failed(alice, one);
        assertEquals(100 * MS, delays.nanosBeforeAttempt(alice, sameSlash64));
        assertTrue(delays.suspect(sameSlash64));
        assertEquals(0, delays.nanosBeforeAttempt(alice, otherSlash64));
        assertFalse(delays.suspect(otherSlash64));

        FailedBindDelays per48 = new FailedBindDelays(100, 1_000, 48, () -> now);
        per48.failed(alice, one);
        assertTrue(per48.suspect(otherSlash64));
        assertEquals(per48.clientKey(one), per48.clientKey(otherSlash64));
    }

    @Test
    void successClearsTheAccountAndItsPairButNotTheAddress() throws Exception {
        Dn alice = dn("uid=alice");
        InetAddress client = address(1);
        for (int i = 0; i < FailedBindDelays.ACCOUNT_ALLOWANCE + 2; i++) {
            delays.failed(alice, client);
        }
        delays.succeeded(alice, client);
        assertEquals(0, delays.nanosBeforeAttempt(alice, client));
        assertTrue(delays.suspect(client));
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
        assertTrue(delays.tracked() <= 2 * FailedBindDelays.MAX_TRACKED + 1, "tracked " + delays.tracked());
        // the sprayer's address is the most recent entry of its map, so it is still suspect
        assertTrue(delays.suspect(client));
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
