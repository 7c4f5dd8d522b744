package dev.larch.server.auth;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;

/**
 * Bounds the password checks of binds from clients that have been failing ({@link
 * FailedBindDelays#suspect}): at most {@code perAddress} per address (IPv6: prefix) and {@code total}
 * for all such addresses together are in progress at once, from admission until the answer is sent
 * (its failed-bind delay included). Past either bound the bind is answered busy at once, without
 * hashing: a few hundred connections of a guesser cost a few hashes at a time, and clients without
 * failures always keep the rest of the worker pool. Unknown and known DNs are bounded alike, so the
 * busy answer tells nothing about which exist.
 *
 * <p>Memory is bounded by {@code total}: an address is held only while it has checks in progress.
 * Thread-safe.
 */
public final class SuspectChecks {
    private final int perAddress;
    private final int total;
    private final Map<InetAddress, Integer> running = new HashMap<>();
    private int all;

    /**
     * @param perAddress checks one failing address may have in progress, at least 1
     *     ({@code security.suspect-checks-per-address})
     * @param total checks all failing addresses may have in progress, at least 1
     *     ({@code security.suspect-checks-total})
     */
    public SuspectChecks(int perAddress, int total) {
        if (perAddress < 1 || total < 1) {
            throw new IllegalArgumentException("need perAddress >= 1 and total >= 1");
        }
        this.perAddress = perAddress;
        this.total = total;
    }

    /**
     * Takes a place for a check from {@code client} (as {@link FailedBindDelays#clientKey} gives it).
     *
     * @return false when a bound is reached: answer busy, do not hash
     */
    public synchronized boolean tryAcquire(InetAddress client) {
        int mine = running.getOrDefault(client, 0);
        if (mine >= perAddress || all >= total) {
            return false;
        }
        running.put(client, mine + 1);
        all++;
        return true;
    }

    /** Gives back a place taken by {@link #tryAcquire}. */
    public synchronized void release(InetAddress client) {
        Integer mine = running.get(client);
        if (mine == null) {
            return;
        }
        if (mine <= 1) {
            running.remove(client);
        } else {
            running.put(client, mine - 1);
        }
        all--;
    }

    /** Checks in progress, all addresses together (for tests). */
    synchronized int running() {
        return all;
    }
}
