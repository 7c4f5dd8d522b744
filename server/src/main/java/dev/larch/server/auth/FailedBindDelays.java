package dev.larch.server.auth;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import org.apache.directory.api.ldap.model.name.Dn;

/**
 * Slows password guessing: remembers recent failed binds per DN and per client address, and says
 * how long a failure's answer, and the next attempt, must wait. The wait starts at the first delay,
 * doubles with each further failure and stops growing at the maximum. A DN pays from its first
 * failure; an address only past {@value #ADDRESS_ALLOWANCE} failures, as many people may share one
 * (a proxy, an application server). A record is forgotten after {@link #QUIET_PERIOD_SECONDS} without
 * failures, and a DN's record when it binds successfully; an address's record is not cleared by a
 * success, so an attacker with one valid account cannot wipe it between guesses at others.
 *
 * <p>Memory is bounded: at most {@value #MAX_TRACKED} DNs and as many addresses, the least recently
 * failing forgotten first; DNs are kept as 128-bit digests, so a long DN costs no more than a short
 * one. A client spraying random DNs only evicts other random DNs, and its address keeps paying.
 *
 * <p>Thread-safe; every method is short and takes one lock.
 */
public final class FailedBindDelays {
    /** Most DNs, and most addresses, remembered. */
    static final int MAX_TRACKED = 10_000;
    /** Failures an address may have before its own delay starts. */
    static final int ADDRESS_ALLOWANCE = 10;
    /** After this long without a failure a DN or address starts over. */
    static final long QUIET_PERIOD_SECONDS = 60;

    private final long firstDelayNanos;
    private final long maxDelayNanos;
    private final LongSupplier nanoClock;
    private final LruMap<DnKey, Failures> byDn = new LruMap<>(MAX_TRACKED);
    private final LruMap<InetAddress, Failures> byAddress = new LruMap<>(MAX_TRACKED);

    /**
     * @param firstDelayMillis delay after the first counted failure; 0 turns the delays off
     * @param maxDelayMillis the longest delay, at least {@code firstDelayMillis}
     * @param nanoClock {@link System#nanoTime()} in production; a fake clock in tests
     */
    public FailedBindDelays(long firstDelayMillis, long maxDelayMillis, LongSupplier nanoClock) {
        this.firstDelayNanos = TimeUnit.MILLISECONDS.toNanos(firstDelayMillis);
        this.maxDelayNanos = TimeUnit.MILLISECONDS.toNanos(maxDelayMillis);
        this.nanoClock = nanoClock;
    }

    /**
     * How long a new bind attempt for {@code dn} from {@code address} must wait before it is checked:
     * the rest of the delay its DN or address still owes for an earlier failure, 0 if none.
     *
     * @param address the client's address; null when unknown (then only the DN counts)
     */
    public synchronized long nanosBeforeAttempt(Dn dn, InetAddress address) {
        long now = nanoClock.getAsLong();
        long dnWait = owed(byDn.get(DnKey.of(dn)), 0, now);
        long addressWait = address == null ? 0 : owed(byAddress.get(address), ADDRESS_ALLOWANCE, now);
        return Math.max(dnWait, addressWait);
    }

    /**
     * Records a failed bind and returns how long its answer must be held back.
     *
     * @param address the client's address; null when unknown
     */
    public synchronized long failed(Dn dn, InetAddress address) {
        long now = nanoClock.getAsLong();
        long delay = delay(count(byDn.computeIfAbsent(DnKey.of(dn), k -> new Failures()), now), 0);
        if (address != null) {
            int count = count(byAddress.computeIfAbsent(address, k -> new Failures()), now);
            delay = Math.max(delay, delay(count, ADDRESS_ALLOWANCE));
        }
        return delay;
    }

    /** Forgets the failures of {@code dn} after it bound with the right password. */
    public synchronized void succeeded(Dn dn) {
        byDn.remove(DnKey.of(dn));
    }

    /** Number of DNs and addresses remembered (for tests of the bound). */
    synchronized int tracked() {
        return byDn.size() + byAddress.size();
    }

    private int count(Failures failures, long now) {
        if (expired(failures, now)) {
            failures.count = 0;
        }
        failures.count++;
        failures.lastNanos = now;
        return failures.count;
    }

    private long owed(Failures failures, int allowance, long now) {
        if (failures == null || expired(failures, now)) {
            return 0;
        }
        return Math.max(0, failures.lastNanos + delay(failures.count, allowance) - now);
    }

    private static boolean expired(Failures failures, long now) {
        return now - failures.lastNanos > TimeUnit.SECONDS.toNanos(QUIET_PERIOD_SECONDS);
    }

    /** The delay after {@code count} failures of which the first {@code allowance} were free. */
    private long delay(int count, int allowance) {
        int paid = count - allowance;
        if (paid <= 0 || firstDelayNanos == 0) {
            return 0;
        }
        long delay = firstDelayNanos;
        for (int i = 1; i < paid && delay < maxDelayNanos; i++) {
            delay *= 2;
        }
        return Math.min(maxDelayNanos, delay);
    }

    /** Failures of one DN or address; guarded by the owning {@link FailedBindDelays}. */
    private static final class Failures {
        int count;
        long lastNanos;
    }

    /** The first 128 bits of the SHA-256 of a DN's normalized form. */
    private record DnKey(long high, long low) {
        static DnKey of(Dn dn) {
            try {
                byte[] digest = MessageDigest.getInstance("SHA-256")
                        .digest(dn.getNormName().getBytes(StandardCharsets.UTF_8));
                ByteBuffer bytes = ByteBuffer.wrap(digest);
                return new DnKey(bytes.getLong(), bytes.getLong());
            } catch (NoSuchAlgorithmException e) {
                // SHA-256 is required of every Java platform.
                throw new IllegalStateException(e);
            }
        }
    }
}
