package dev.larch.server.net.proxy;

import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledDirectByteBuf;
import io.netty.buffer.UnpooledHeapByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.embedded.EmbeddedChannel;

/**
 * An embedded connection from {@link #PEER} with the PROXY protocol's handlers, as a listener installs
 * them for a balancer, and a stand-in for the LDAP pipeline that records what reaches it. Every buffer
 * of the channel comes from a tracking allocator, so that {@link #leaked()} can tell whether any is
 * left unreleased. Single-threaded, as EmbeddedChannel is.
 */
final class ProxyChannel {
    static final InetSocketAddress PEER = new InetSocketAddress("192.0.2.10", 50_000);

    final EmbeddedChannel channel;
    private final TrackingAllocator allocator = new TrackingAllocator();
    /** The client address when the continuation ran, else null. */
    SocketAddress client;

    int continuations;
    boolean activeBehind;
    final ByteArrayOutputStream behind = new ByteArrayOutputStream();

    ProxyChannel(ProxyProtocol proxy) {
        channel = new EmbeddedChannel() {
            @Override
            protected SocketAddress remoteAddress0() {
                return PEER;
            }
        };
        channel.config().setAllocator(allocator);
        // Time moves only by advanceTimeBy: the header timeout is judged exactly, however slow the run.
        channel.freezeTime();
        // As LdapChannelInitializer: the handlers go in before the channel is seen active.
        channel.pipeline().addLast(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                proxy.install(ch.pipeline(), () -> {
                    continuations++;
                    client = ClientAddress.of(ch);
                    ch.pipeline().addLast(new Behind());
                });
            }
        });
        channel.pipeline().fireChannelActive();
    }

    /** Sends {@code bytes} in one read. */
    void read(byte[] bytes) {
        ByteBuf buf = allocator.buffer(bytes.length);
        buf.writeBytes(bytes);
        channel.writeInbound(buf);
    }

    /** Sends {@code bytes} cut into reads at the given offsets (ascending). */
    void read(byte[] bytes, int... cuts) {
        int from = 0;
        for (int cut : cuts) {
            read(Arrays.copyOfRange(bytes, from, cut));
            from = cut;
        }
        read(Arrays.copyOfRange(bytes, from, bytes.length));
    }

    boolean isOpen() {
        return channel.isOpen();
    }

    /** Closes the channel, drops what it holds; true when a buffer it allocated is still unreleased. */
    boolean leaked() {
        channel.finishAndReleaseAll();
        return allocator.unreleased() > 0;
    }

    /** What the LDAP pipeline would be: sees activation and the bytes after the header. */
    private final class Behind extends ChannelInboundHandlerAdapter {
        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            activeBehind = true;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            byte[] bytes = new byte[buf.readableBytes()];
            buf.readBytes(bytes);
            buf.release();
            behind.writeBytes(bytes);
        }
    }

    /** Unpooled buffers, each remembered until the end of the case (leak-aware wrapping as configured). */
    static final class TrackingAllocator extends AbstractByteBufAllocator {
        private final List<ByteBuf> allocated = new ArrayList<>();

        TrackingAllocator() {
            super(false);
        }

        @Override
        protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
            return track(new UnpooledHeapByteBuf(this, initialCapacity, maxCapacity));
        }

        @Override
        protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
            return track(new UnpooledDirectByteBuf(this, initialCapacity, maxCapacity));
        }

        @Override
        public boolean isDirectBufferPooled() {
            return false;
        }

        private ByteBuf track(ByteBuf buf) {
            allocated.add(buf);
            return buf;
        }

        long unreleased() {
            return allocated.stream().filter(b -> b.refCnt() > 0).count();
        }
    }
}
