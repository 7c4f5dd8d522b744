package dev.larch.server.net;

import java.util.List;
import java.util.Objects;

import dev.larch.config.IpNetwork;

/**
 * How an {@link LdapListener} listens and what it accepts.
 *
 * @param host                     interface to bind, e.g. {@code 127.0.0.1} or {@code 0.0.0.0}; never null
 * @param port                     TCP port; 0 picks an ephemeral port (see {@link LdapListener#address()})
 * @param ioThreads                event-loop threads for connections; 0 means one per core ({@link #eventLoops()})
 * @param maxPduBytes              largest LDAPMessage accepted once a bind succeeded, tag and length
 *                                 included; a larger one gets a Notice of Disconnection before any of its
 *                                 value is buffered
 * @param idleTimeoutSeconds       close a connection that has neither read nor written for this long while
 *                                 no operation is outstanding; 0 disables
 * @param maxFilterDepth           deepest search filter nesting accepted (a plain {@code (cn=x)} is 1);
 *                                 deeper filters get protocolError without being decoded; at most
 *                                 {@link #MAX_FILTER_DEPTH_LIMIT}
 * @param maxPduBytesAnonymous     as {@code maxPduBytes}, while the connection is anonymous (before a
 *                                 successful bind, or after a bind back to anonymous); the smaller of the
 *                                 two applies
 * @param maxPendingOperations     most requests of one connection read but not yet answered; at the limit
 *                                 the server stops reading from that connection until one completes
 * @param maxConnections           most connections open at once; 0 means no limit
 * @param maxConnectionsPerAddress most connections open at once from one client IP address; 0 means no limit
 * @param maxFilterElements        most elements (and, or, not and every comparison) one search filter may
 *                                 have; a larger filter gets adminLimitExceeded without being decoded
 * @param maxPendingBytes          the bytes (PDU sizes as received) of the requests one bound connection
 *                                 may hold read and not yet answered; at the limit the server stops reading
 *                                 from it until some are answered. A connection holding nothing may always
 *                                 read one request, so one holds at most this plus one PDU
 * @param maxPendingBytesAnonymous as {@code maxPendingBytes} while the connection is anonymous; the smaller
 *                                 of the two applies
 * @param maxPendingBytesTotal     the bytes all connections of the listener may hold together; while they
 *                                 do, every connection that holds something stops reading
 * @param proxyProtocolFrom        the load balancers whose connections start with a PROXY header naming
 *                                 the client (see {@link dev.larch.server.net.proxy.ProxyProtocol}); empty
 *                                 for none; never null
 */
public record ListenerOptions(
        String host,
        int port,
        int ioThreads,
        int maxPduBytes,
        int idleTimeoutSeconds,
        int maxFilterDepth,
        int maxPduBytesAnonymous,
        int maxPendingOperations,
        int maxConnections,
        int maxConnectionsPerAddress,
        int maxFilterElements,
        long maxPendingBytes,
        long maxPendingBytesAnonymous,
        long maxPendingBytesTotal,
        List<IpNetwork> proxyProtocolFrom) {

    public static final int DEFAULT_MAX_PDU_BYTES = 8 * 1024 * 1024;
    public static final int DEFAULT_MAX_FILTER_DEPTH = 100;
    public static final int DEFAULT_MAX_PDU_BYTES_ANONYMOUS = 256 * 1024;
    /** Far above what a synchronous client (one outstanding request) or a modest async window needs. */
    public static final int DEFAULT_MAX_PENDING_OPERATIONS = 128;

    public static final int DEFAULT_MAX_CONNECTIONS = 4096;
    public static final int DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 512;
    /** Far above the ORs of a few thousand terms that SSSD and group tools send. */
    public static final int DEFAULT_MAX_FILTER_ELEMENTS = 10_000;
    /**
     * Room for a bound client pipelining large requests (one PDU of any size always gets in). A decoded
     * request takes a few times its PDU on the heap: with the total below, a 256 MiB heap keeps room
     * for everything else.
     */
    public static final long DEFAULT_MAX_PENDING_BYTES = 16L << 20;
    /** Four PDUs of the largest anonymous size, or a thousand small searches. */
    public static final long DEFAULT_MAX_PENDING_BYTES_ANONYMOUS = 1L << 20;

    public static final long DEFAULT_MAX_PENDING_BYTES_TOTAL = 32L << 20;
    /**
     * The Apache decoder turns filters into {@code ExprNode}s recursively: around 10,000 levels overflow
     * an event-loop thread's stack, and decoding slows down sharply well before. 1,000 is safe.
     */
    public static final int MAX_FILTER_DEPTH_LIMIT = 1000;

    public ListenerOptions {
        Objects.requireNonNull(host, "host");
        proxyProtocolFrom = List.copyOf(proxyProtocolFrom);
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0..65535, was " + port);
        }
        if (ioThreads < 0) {
            throw new IllegalArgumentException("ioThreads must be >= 0, was " + ioThreads);
        }
        if (maxPduBytes < 64) {
            throw new IllegalArgumentException("maxPduBytes must be >= 64, was " + maxPduBytes);
        }
        if (idleTimeoutSeconds < 0) {
            throw new IllegalArgumentException("idleTimeoutSeconds must be >= 0, was " + idleTimeoutSeconds);
        }
        if (maxFilterDepth < 1 || maxFilterDepth > MAX_FILTER_DEPTH_LIMIT) {
            throw new IllegalArgumentException(
                    "maxFilterDepth must be 1.." + MAX_FILTER_DEPTH_LIMIT + ", was " + maxFilterDepth);
        }
        if (maxPduBytesAnonymous < 64) {
            throw new IllegalArgumentException("maxPduBytesAnonymous must be >= 64, was " + maxPduBytesAnonymous);
        }
        if (maxPendingOperations < 1) {
            throw new IllegalArgumentException("maxPendingOperations must be >= 1, was " + maxPendingOperations);
        }
        if (maxConnections < 0 || maxConnectionsPerAddress < 0) {
            throw new IllegalArgumentException("connection limits must be >= 0 (0 = none), were " + maxConnections
                    + " and " + maxConnectionsPerAddress);
        }
        if (maxFilterElements < 1) {
            throw new IllegalArgumentException("maxFilterElements must be >= 1, was " + maxFilterElements);
        }
        if (maxPendingBytes < 1 || maxPendingBytesAnonymous < 1 || maxPendingBytesTotal < 1) {
            throw new IllegalArgumentException("pending byte limits must be >= 1, were " + maxPendingBytes + ", "
                    + maxPendingBytesAnonymous + " and " + maxPendingBytesTotal);
        }
    }

    /** The given settings with the default limits on pending bytes, reading no PROXY header. */
    public ListenerOptions(
            String host,
            int port,
            int ioThreads,
            int maxPduBytes,
            int idleTimeoutSeconds,
            int maxFilterDepth,
            int maxPduBytesAnonymous,
            int maxPendingOperations,
            int maxConnections,
            int maxConnectionsPerAddress,
            int maxFilterElements) {
        this(
                host,
                port,
                ioThreads,
                maxPduBytes,
                idleTimeoutSeconds,
                maxFilterDepth,
                maxPduBytesAnonymous,
                maxPendingOperations,
                maxConnections,
                maxConnectionsPerAddress,
                maxFilterElements,
                DEFAULT_MAX_PENDING_BYTES,
                DEFAULT_MAX_PENDING_BYTES_ANONYMOUS,
                DEFAULT_MAX_PENDING_BYTES_TOTAL,
                List.of());
    }

    /**
     * The given settings with the default anonymous PDU limit (capped at {@code maxPduBytes}), pending
     * operations, connection limits and filter element limit.
     */
    public ListenerOptions(
            String host, int port, int ioThreads, int maxPduBytes, int idleTimeoutSeconds, int maxFilterDepth) {
        this(
                host,
                port,
                ioThreads,
                maxPduBytes,
                idleTimeoutSeconds,
                maxFilterDepth,
                Math.min(maxPduBytes, DEFAULT_MAX_PDU_BYTES_ANONYMOUS),
                DEFAULT_MAX_PENDING_OPERATIONS,
                DEFAULT_MAX_CONNECTIONS,
                DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
                DEFAULT_MAX_FILTER_ELEMENTS);
    }

    /**
     * The event loops to run: {@link #ioThreads()}, or one per available core when that is 0, as
     * {@code listen.io-threads} documents. (Netty's own default, twice the cores, put four loops on two
     * cores: under churn, a new connection per operation, the two loops of one per core served 1.12x
     * the operations per second at 1.05x the operations per server CPU-second.)
     */
    public int eventLoops() {
        return ioThreads == 0 ? Runtime.getRuntime().availableProcessors() : ioThreads;
    }

    /** The PDU limit while the connection is anonymous: never above {@link #maxPduBytes()}. */
    public int effectiveMaxPduBytesAnonymous() {
        return Math.min(maxPduBytesAnonymous, maxPduBytes);
    }

    /** A copy with the connection limits replaced (0 = none). */
    public ListenerOptions withConnectionLimits(int total, int perAddress) {
        return new ListenerOptions(
                host,
                port,
                ioThreads,
                maxPduBytes,
                idleTimeoutSeconds,
                maxFilterDepth,
                maxPduBytesAnonymous,
                maxPendingOperations,
                total,
                perAddress,
                maxFilterElements,
                maxPendingBytes,
                maxPendingBytesAnonymous,
                maxPendingBytesTotal,
                proxyProtocolFrom);
    }

    /** A copy with the anonymous PDU limit and the per-connection pending-operation limit replaced. */
    public ListenerOptions withRequestLimits(int anonymousPduBytes, int pendingOperations) {
        return new ListenerOptions(
                host,
                port,
                ioThreads,
                maxPduBytes,
                idleTimeoutSeconds,
                maxFilterDepth,
                anonymousPduBytes,
                pendingOperations,
                maxConnections,
                maxConnectionsPerAddress,
                maxFilterElements,
                maxPendingBytes,
                maxPendingBytesAnonymous,
                maxPendingBytesTotal,
                proxyProtocolFrom);
    }

    /** A copy with the filter element limit replaced. */
    public ListenerOptions withMaxFilterElements(int elements) {
        return new ListenerOptions(
                host,
                port,
                ioThreads,
                maxPduBytes,
                idleTimeoutSeconds,
                maxFilterDepth,
                maxPduBytesAnonymous,
                maxPendingOperations,
                maxConnections,
                maxConnectionsPerAddress,
                elements,
                maxPendingBytes,
                maxPendingBytesAnonymous,
                maxPendingBytesTotal,
                proxyProtocolFrom);
    }

    /** A copy with the limits on pending request bytes replaced: per bound connection, per anonymous one, in all. */
    public ListenerOptions withPendingBytes(long perConnection, long perAnonymousConnection, long total) {
        return new ListenerOptions(
                host,
                port,
                ioThreads,
                maxPduBytes,
                idleTimeoutSeconds,
                maxFilterDepth,
                maxPduBytesAnonymous,
                maxPendingOperations,
                maxConnections,
                maxConnectionsPerAddress,
                maxFilterElements,
                perConnection,
                perAnonymousConnection,
                total,
                proxyProtocolFrom);
    }

    /** A copy that reads a PROXY header from the connections of {@code networks} (none when empty). */
    public ListenerOptions withProxyProtocolFrom(List<IpNetwork> networks) {
        return new ListenerOptions(
                host,
                port,
                ioThreads,
                maxPduBytes,
                idleTimeoutSeconds,
                maxFilterDepth,
                maxPduBytesAnonymous,
                maxPendingOperations,
                maxConnections,
                maxConnectionsPerAddress,
                maxFilterElements,
                maxPendingBytes,
                maxPendingBytesAnonymous,
                maxPendingBytesTotal,
                networks);
    }
}
