package dev.larch.server.auth;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import org.apache.directory.api.ldap.model.name.Dn;

/**
 * Slows password guessing: remembers recent failed binds per account (DN), per account and client
 * address together, and per address, and says how long a failure's answer, and the next attempt,
 * must wait. The wait starts at the first delay, doubles with each further failure and stops growing
 * at the maximum. An account and address pair pays from its first failure; an account as a whole
 * (guesses from anywhere) only past {@value #ACCOUNT_ALLOWANCE} failures, so that a guesser elsewhere
 * does not slow the owner at once. An address alone is never delayed, so that one guesser does not
 * slow every user behind the same NAT or proxy: its failures only make it {@link #suspect}, which
 * bounds the hash work it may have running ({@link SuspectChecks}). IPv6 addresses are counted per
 * prefix ({@code security.ipv6-prefix-bits}, 64 by default), as one client usually holds a whole /64.
 *
 * <p>A record is forgotten after {@link #QUIET_PERIOD_SECONDS} without failures, and an account's
 * records when it binds successfully from that address; an address's record is not cleared by a
 * success, so an attacker with one valid account cannot wipe it between guesses at others.
 *
 * <p>Memory is bounded: at most {@value #MAX_TRACKED} accounts, as many pairs and as many addresses,
 * the least recently failing forgotten first; DNs are kept as 128-bit digests, so a long DN costs no
 * more than a short one.
 *
 * <p>Thread-safe; every method is short and takes one lock.
 */
public final class FailedBindDelays {
    /** Most DNs, pairs and addresses remembered. */
    static final int MAX_TRACKED = 10_000;
    /** Failures an account may have, from all addresses together, before its own delay starts. */
    static final int ACCOUNT_ALLOWANCE = 10;
    /** After this long without a failure a record starts over. */
    static final long QUIET_PERIOD_SECONDS = 60;

    private final long firstDelayNanos;
    private final long maxDelayNanos;
    private final int ipv6PrefixBits;
    private final LongSupplier nanoClock;
    private final LruMap<DnKey, Failures> byDn = new LruMap<>(MAX_TRACKED);
    private final LruMap<Pair, Failures> byPair = new LruMap<>(MAX_TRACKED);
    private final LruMap<InetAddress, Failures> byAddress = new LruMap<>(MAX_TRACKED);

    /** Counting IPv6 clients per /64. */
    public FailedBindDelays(long firstDelayMillis, long maxDelayMillis, LongSupplier nanoClock) {
        this(firstDelayMillis, maxDelayMillis, 64, nanoClock);
    }

    /**
     * @param firstDelayMillis delay after the first counted failure; 0 turns the delays off
     * @param maxDelayMillis the longest delay, at least {@code firstDelayMillis}
     * @param ipv6PrefixBits the prefix by which IPv6 clients count as one address, 1..128
     * @param nanoClock {@link System#nanoTime()} in production; a fake clock in tests
     */
    public FailedBindDelays(long firstDelayMillis, long maxDelayMillis, int ipv6PrefixBits, LongSupplier nanoClock) {
        this.firstDelayNanos = TimeUnit.MILLISECONDS.toNanos(firstDelayMillis);
        this.maxDelayNanos = TimeUnit.MILLISECONDS.toNanos(maxDelayMillis);
        this.ipv6PrefixBits = ipv6PrefixBits;
        this.nanoClock = nanoClock;
    }

    /**
     * The address as it is counted: an IPv4 address as it is, an IPv6 address cut to its prefix;
     * null for null.
     */
    public InetAddress clientKey(InetAddress address) {
        if (!(address instanceof Inet6Address)) {
            return address;
        }
        byte[] bytes = address.getAddress();
        for (int bit = ipv6PrefixBits; bit < 128; bit++) {
            bytes[bit / 8] &= (byte) ~(0x80 >>> (bit % 8));
        }
        try {
            return InetAddress.getByAddress(bytes);
        } catch (UnknownHostException e) {
            // 16 bytes are always a valid IPv6 address.
            throw new IllegalStateException(e);
        }
    }

    /**
     * How long a new bind attempt for {@code dn} from {@code address} must wait before it is checked:
     * the rest of the delay its account, or its account from this address, still owes for an earlier
     * failure; 0 if none.
     *
     * @param address the client's address; null when unknown (then only the account counts)
     */
    public synchronized long nanosBeforeAttempt(Dn dn, InetAddress address) {
        if (byDn.isEmpty() && byPair.isEmpty()) {
            // Nothing failed lately: no key to hash (a digest of the DN) for every bind.
            return 0;
        }
        long now = nanoClock.getAsLong();
        DnKey key = DnKey.of(dn);
        long dnWait = owed(byDn.get(key), address == null ? 0 : ACCOUNT_ALLOWANCE, now);
        long pairWait = address == null ? 0 : owed(byPair.get(new Pair(key, clientKey(address))), 0, now);
        return Math.max(dnWait, pairWait);
    }

    /**
     * Records a failed bind and returns how long its answer must be held back.
     *
     * @param address the client's address; null when unknown (then the account pays from its first failure)
     */
    public synchronized long failed(Dn dn, InetAddress address) {
        long now = nanoClock.getAsLong();
        DnKey key = DnKey.of(dn);
        int accountFailures = count(byDn.computeIfAbsent(key, k -> new Failures()), now);
        if (address == null) {
            return delay(accountFailures, 0);
        }
        InetAddress client = clientKey(address);
        count(byAddress.computeIfAbsent(client, k -> new Failures()), now);
        int pairFailures = count(byPair.computeIfAbsent(new Pair(key, client), k -> new Failures()), now);
        return Math.max(delay(pairFailures, 0), delay(accountFailures, ACCOUNT_ALLOWANCE));
    }

    /**
     * Whether {@code address} failed a bind within the quiet period: its password checks are then
     * bounded ({@link SuspectChecks}). False for null.
     */
    public synchronized boolean suspect(InetAddress address) {
        if (address == null) {
            return false;
        }
        Failures failures = byAddress.get(clientKey(address));
        return failures != null && !expired(failures, nanoClock.getAsLong());
    }

    /** Forgets the failures of {@code dn} after it bound with the right password. */
    public synchronized void succeeded(Dn dn) {
        if (byDn.isEmpty()) {
            return;
        }
        byDn.remove(DnKey.of(dn));
    }

    /** Forgets the failures of {@code dn}, and of it from {@code address}, after it bound with the right password. */
    public synchronized void succeeded(Dn dn, InetAddress address) {
        if (byDn.isEmpty() && byPair.isEmpty()) {
            return;
        }
        DnKey key = DnKey.of(dn);
        byDn.remove(key);
        if (address != null) {
            byPair.remove(new Pair(key, clientKey(address)));
        }
    }

    /** Number of DNs, pairs and addresses remembered (for tests of the bound). */
    synchronized int tracked() {
        return byDn.size() + byPair.size() + byAddress.size();
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

    /** An account and a client address (IPv6: prefix) together. */
    private record Pair(DnKey dn, InetAddress client) {}

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
