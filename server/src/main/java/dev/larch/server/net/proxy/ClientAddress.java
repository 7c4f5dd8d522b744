package dev.larch.server.net.proxy;

import java.net.SocketAddress;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;

/**
 * The address of the client at the other end of a connection: the client a PROXY header named, or
 * else the TCP peer. The one place the connection path reads it, so that connection limits, the
 * session (and through it failed-bind delays, rate quotas, ACI {@code ip} rules, the access and audit
 * logs) all see the same client.
 */
public final class ClientAddress {
    private static final AttributeKey<SocketAddress> KEY = AttributeKey.valueOf(ClientAddress.class, "client");

    private ClientAddress() {}

    /** The client of {@code channel}; null only when the channel has no peer (not connected). */
    public static SocketAddress of(Channel channel) {
        SocketAddress proxied = channel.attr(KEY).get();
        return proxied != null ? proxied : channel.remoteAddress();
    }

    /** Records the client a PROXY header named; set once, before the LDAP pipeline exists. */
    static void set(Channel channel, SocketAddress client) {
        channel.attr(KEY).set(client);
    }
}
