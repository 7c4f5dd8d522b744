package dev.larch.config;

import java.util.List;
import java.util.Objects;

/**
 * Where and how the server accepts LDAP connections.
 *
 * @param host the address to bind, a name or an IP literal; never null
 * @param port the TCP port, 0..65535; 0 asks the OS for any free port (tests use this)
 * @param ioThreads event-loop threads; 0 means one per available core
 * @param maxPduBytes the largest LDAP message accepted; a bigger one is rejected before it is buffered
 * @param idleTimeoutSeconds close connections idle this long; 0 means never
 * @param maxFilterDepth the deepest nesting of and/or/not a search filter may have
 * @param maxPduBytesAnonymous as {@code maxPduBytes} while a connection has not bound (the smaller applies)
 * @param maxPendingOperations requests of one connection read and not yet answered before reading pauses
 * @param maxConnections connections open at once; 0 means no limit
 * @param maxConnectionsPerAddress connections open at once from one client IP address; 0 means no limit
 * @param maxFilterElements the most elements (and, or, not and every comparison) one search filter may
 *     have; a larger filter is answered adminLimitExceeded without being decoded
 * @param maxPendingSize bytes of requests (their PDUs as received) one bound connection may hold read
 *     and not yet answered before reading from it pauses
 * @param maxPendingSizeAnonymous as {@code maxPendingSize} while a connection has not bound (the smaller
 *     applies)
 * @param maxPendingSizeTotal bytes of requests all connections may hold together; while they do, every
 *     connection holding one pauses
 * @param proxyProtocolFrom the networks of the load balancers that send a PROXY protocol header (v1 or
 *     v2) before LDAP: connections from them must, and the header's source address becomes the client
 *     address; empty (the default) means no connection is read for a header; never null
 */
public record Listen(
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
        long maxPendingSize,
        long maxPendingSizeAnonymous,
        long maxPendingSizeTotal,
        List<IpNetwork> proxyProtocolFrom) {
    public Listen {
        Objects.requireNonNull(host, "host");
        proxyProtocolFrom = List.copyOf(proxyProtocolFrom);
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be 0..65535, got " + port);
        }
    }

    /**
     * A copy with the port replaced.
     *
     * @throws IllegalArgumentException when the port is outside 0..65535
     */
    public Listen withPort(int newPort) {
        return new Listen(
                host,
                newPort,
                ioThreads,
                maxPduBytes,
                idleTimeoutSeconds,
                maxFilterDepth,
                maxPduBytesAnonymous,
                maxPendingOperations,
                maxConnections,
                maxConnectionsPerAddress,
                maxFilterElements,
                maxPendingSize,
                maxPendingSizeAnonymous,
                maxPendingSizeTotal,
                proxyProtocolFrom);
    }
}
