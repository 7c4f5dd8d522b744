package dev.larch.server.net;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts the open connections of one listener, in total and per client IP address, and admits a new
 * one only within {@code listen.max-connections} and {@code listen.max-connections-per-address}. A
 * refused connection is counted ({@link #refused()}) and logged at most once per
 * {@link #LOG_INTERVAL_NANOS}, with the number refused since the last line, so that a flood of
 * connection attempts cannot flood the log.
 *
 * <p>Thread-safe: connections are admitted and released on their own event loops.
 */
final class ConnectionLimits {

    private static final Logger LOG = LoggerFactory.getLogger(ConnectionLimits.class);
    private static final long LOG_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** Why a connection was refused; the message goes into its Notice of Disconnection. */
    record Refusal(String message) {}

    private final int maxTotal;
    private final int maxPerAddress;
    private final AtomicInteger open = new AtomicInteger();
    private final ConcurrentHashMap<InetAddress, Integer> openPerAddress = new ConcurrentHashMap<>();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong refusedSinceLog = new AtomicLong();
    private final AtomicLong nextLogNanos = new AtomicLong(System.nanoTime());

    /** @param maxTotal and {@code maxPerAddress}: the limits, 0 for none */
    ConnectionLimits(int maxTotal, int maxPerAddress) {
        this.maxTotal = maxTotal;
        this.maxPerAddress = maxPerAddress;
    }

    static ConnectionLimits unlimited() {
        return new ConnectionLimits(0, 0);
    }

    /**
     * Admits a connection from {@code remote}, or refuses it. An admitted connection must be
     * {@link #release released} exactly once, with the same address, when it closes. Addresses that
     * are not IP (embedded channels) count only towards the total.
     *
     * @return null when admitted, else why not
     */
    Refusal admit(SocketAddress remote) {
        int total = open.incrementAndGet();
        if (maxTotal > 0 && total > maxTotal) {
            open.decrementAndGet();
            return refuse(
                    "too many connections: the server accepts at most " + maxTotal + " (listen.max-connections)",
                    remote);
        }
        InetAddress address = ipOf(remote);
        if (address != null && maxPerAddress > 0) {
            int count = openPerAddress.merge(address, 1, Integer::sum);
            if (count > maxPerAddress) {
                decrement(address);
                open.decrementAndGet();
                return refuse(
                        "too many connections from " + address.getHostAddress() + ": at most " + maxPerAddress
                                + " per address (listen.max-connections-per-address)",
                        remote);
            }
        }
        return null;
    }

    /** Ends the count of a connection that {@link #admit} admitted. */
    void release(SocketAddress remote) {
        open.decrementAndGet();
        InetAddress address = ipOf(remote);
        if (address != null && maxPerAddress > 0) {
            decrement(address);
        }
    }

    /** Connections admitted and not yet released. */
    int open() {
        return open.get();
    }

    /** Connections refused since the listener started. */
    long refused() {
        return refused.get();
    }

    private void decrement(InetAddress address) {
        openPerAddress.computeIfPresent(address, (a, n) -> n == 1 ? null : n - 1);
    }

    private Refusal refuse(String message, SocketAddress remote) {
        refused.incrementAndGet();
        long since = refusedSinceLog.incrementAndGet();
        long now = System.nanoTime();
        long due = nextLogNanos.get();
        if (now - due >= 0 && nextLogNanos.compareAndSet(due, now + LOG_INTERVAL_NANOS)) {
            refusedSinceLog.addAndGet(-since);
            LOG.info("refused {} connection(s), latest from {}: {}", since, remote, message);
        }
        return new Refusal(message);
    }

    private static InetAddress ipOf(SocketAddress remote) {
        return remote instanceof InetSocketAddress inet ? inet.getAddress() : null;
    }
}
