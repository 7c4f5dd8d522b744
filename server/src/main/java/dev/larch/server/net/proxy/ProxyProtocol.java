package dev.larch.server.net.proxy;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.larch.config.IpNetwork;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.haproxy.HAProxyMessageDecoder;

/**
 * The PROXY protocol (haproxy's proxy-protocol.txt, versions 1 and 2) on the LDAP ports, as
 * {@code listen.proxy-protocol-from} configures it: which peers are load balancers that must start
 * each connection with a header naming the client behind them, and the handlers that read it.
 *
 * <p>Both versions are accepted, as OpenLDAP's {@code proxyp://} and haproxy itself do: balancers send
 * v1 ({@code send-proxy}) or v2 ({@code send-proxy-v2}, AWS and Azure load balancers), and only listed
 * peers are ever read for either. Connections from any other peer are never read for a header: one
 * sent by them is LDAP bytes, and fails to decode as such.
 *
 * <p>Immutable and thread-safe: one is shared by all the connections of a listener.
 */
public final class ProxyProtocol {
    /** Reads no header from anyone. */
    public static final ProxyProtocol OFF = new ProxyProtocol(List.of());

    /** How long a balancer's connection may take to send its header; they send it with the connection. */
    public static final long HEADER_TIMEOUT_MILLIS = TimeUnit.SECONDS.toMillis(5);

    /**
     * The most bytes of v2 TLVs (type-length-value extensions, such as AWS's endpoint id or haproxy's
     * TLS details) a header may carry; with the fixed part and the largest address block a header is at
     * most 232 bytes more. A v1 header is at most 107 bytes (the protocol's own bound).
     */
    public static final int MAX_TLV_BYTES = 2048;

    private final List<IpNetwork> balancers;

    /** @param balancers the networks whose connections must send a header; empty for none */
    public ProxyProtocol(List<IpNetwork> balancers) {
        this.balancers = List.copyOf(balancers);
    }

    /**
     * True when a connection from {@code peer} (its TCP peer address) must start with a header: the
     * peer is an IP address inside one of the networks.
     */
    public boolean expectsHeaderFrom(SocketAddress peer) {
        return peer instanceof InetSocketAddress inet
                && inet.getAddress() != null
                && balancers.stream().anyMatch(n -> n.contains(inet.getAddress()));
    }

    /**
     * Adds, at the end of {@code pipeline}, the handlers that read the header. Once it is read, on the
     * channel's event loop, {@link ClientAddress#of} gives the client it names and {@code onClient} runs:
     * it adds the rest of the pipeline, which then sees the channel become active and every byte after
     * the header. A connection whose header is missing, bad, or late is closed and {@code onClient} never
     * runs.
     */
    public void install(ChannelPipeline pipeline, Runnable onClient) {
        pipeline.addLast("proxy-signature", new ProxySignature());
        pipeline.addLast("proxy-decode", new HAProxyMessageDecoder(MAX_TLV_BYTES));
        pipeline.addLast("proxy-header", new ProxyHeaderHandler(HEADER_TIMEOUT_MILLIS, onClient));
    }
}
