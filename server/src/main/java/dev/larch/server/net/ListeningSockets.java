package dev.larch.server.net;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.util.concurrent.EventExecutor;

/**
 * The listening sockets of one address, and where each accepted connection runs.
 *
 * <p>With native epoll, one socket per event loop, all bound to the address with {@code SO_REUSEPORT}:
 * the kernel spreads new connections across them, and the loop that accepts a connection also serves
 * it. A single acceptor thread instead hands every connection to another loop (a task queued and a
 * wake-up written per connection) and wakes once per connection itself: under the churn mix (a new
 * connection per operation) that acceptor took about an eighth of the server's CPU. Linux lets only
 * sockets of the same user share a port this way, and a port another process holds without the option
 * is still refused.
 *
 * <p>Without epoll (NIO), one socket on {@code acceptGroup}, handing connections to the loops in turn.
 *
 * <p>Not thread-safe: made and closed by the listener's owner.
 */
final class ListeningSockets {

    private final List<Channel> sockets;

    private ListeningSockets(List<Channel> sockets) {
        this.sockets = List.copyOf(sockets);
    }

    /**
     * Binds {@code host:port}; port 0 picks one port for all the sockets.
     *
     * @param bootstrap   everything but the event loops: cloned for each socket
     * @param acceptGroup the acceptor's loop, or null for a socket per loop of {@code ioGroup} (epoll only)
     * @throws RuntimeException when a socket cannot be bound; then none stays bound
     */
    static ListeningSockets bind(
            ServerBootstrap bootstrap, EventLoopGroup acceptGroup, EventLoopGroup ioGroup, String host, int port) {
        if (acceptGroup != null) {
            return new ListeningSockets(List.of(bound(bootstrap.clone().group(acceptGroup, ioGroup), host, port)));
        }
        List<Channel> sockets = new ArrayList<>();
        try {
            int boundPort = port;
            for (EventExecutor executor : ioGroup) {
                EventLoop loop = (EventLoop) executor;
                ServerBootstrap own = bootstrap.clone().group(loop, loop).option(EpollChannelOption.SO_REUSEPORT, true);
                Channel socket = bound(own, host, boundPort);
                sockets.add(socket);
                boundPort = ((InetSocketAddress) socket.localAddress()).getPort();
            }
        } catch (RuntimeException e) {
            new ListeningSockets(sockets).close();
            throw e;
        }
        return new ListeningSockets(sockets);
    }

    private static Channel bound(ServerBootstrap bootstrap, String host, int port) {
        return bootstrap.bind(host, port).syncUninterruptibly().channel();
    }

    /** The bound address (with the real port when 0 was asked for). */
    InetSocketAddress address() {
        return (InetSocketAddress) sockets.getFirst().localAddress();
    }

    /** Whether every socket is open and accepting. */
    boolean isActive() {
        return sockets.stream().allMatch(Channel::isActive);
    }

    /** Closes every socket and waits until they are closed; connections already accepted stay open. */
    void close() {
        for (Channel socket : sockets) {
            socket.close().syncUninterruptibly();
        }
    }
}
