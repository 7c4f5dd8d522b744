package dev.larch.server.net;

import java.util.Objects;

/**
 * How an {@link LdapListener} listens and what it accepts.
 *
 * @param host               interface to bind, e.g. {@code 127.0.0.1} or {@code 0.0.0.0}; never null
 * @param port               TCP port; 0 picks an ephemeral port (see {@link LdapListener#address()})
 * @param ioThreads          event-loop threads for connections; 0 means Netty's default (2 × cores)
 * @param maxPduBytes        largest LDAPMessage accepted, tag and length included; a larger one gets a
 *                           Notice of Disconnection before any of its value is buffered
 * @param idleTimeoutSeconds close a connection that has neither read nor written for this long while
 *                           no operation is outstanding; 0 disables
 * @param maxFilterDepth     deepest search filter nesting accepted (a plain {@code (cn=x)} is 1);
 *                           deeper filters get protocolError without being decoded; at most
 *                           {@link #MAX_FILTER_DEPTH_LIMIT}
 */
public record ListenerOptions(
        String host, int port, int ioThreads, int maxPduBytes, int idleTimeoutSeconds, int maxFilterDepth) {

    public static final int DEFAULT_PORT = 1389;
    public static final int DEFAULT_MAX_PDU_BYTES = 8 * 1024 * 1024;
    public static final int DEFAULT_MAX_FILTER_DEPTH = 100;
    /**
     * The Apache decoder turns filters into {@code ExprNode}s recursively: around 10,000 levels overflow
     * an event-loop thread's stack, and decoding slows down sharply well before. 1,000 is safe.
     */
    public static final int MAX_FILTER_DEPTH_LIMIT = 1000;

    public ListenerOptions {
        Objects.requireNonNull(host, "host");
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
    }

    /** 127.0.0.1:1389, default threads, 8 MiB PDUs, no idle timeout, filters 100 deep. */
    public static ListenerOptions defaults() {
        return new ListenerOptions("127.0.0.1", DEFAULT_PORT, 0, DEFAULT_MAX_PDU_BYTES, 0, DEFAULT_MAX_FILTER_DEPTH);
    }

    public ListenerOptions withHost(String newHost) {
        return new ListenerOptions(newHost, port, ioThreads, maxPduBytes, idleTimeoutSeconds, maxFilterDepth);
    }

    public ListenerOptions withPort(int newPort) {
        return new ListenerOptions(host, newPort, ioThreads, maxPduBytes, idleTimeoutSeconds, maxFilterDepth);
    }
}
