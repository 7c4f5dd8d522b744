package dev.larch.server.net;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.timeout.IdleStateEvent;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The connection's idle timeout on the event loop's clock, as Netty's IdleStateHandler fires its all-idle events. */
class IdleTimeoutTest {
    private final List<Object> events = new ArrayList<>();
    private EmbeddedChannel channel;

    @BeforeEach
    void open() {
        channel = new EmbeddedChannel();
        channel.freezeTime();
        channel.pipeline().addLast(new IdleTimeout(10, TimeUnit.SECONDS), new ChannelInboundHandlerAdapter() {
            @Override
            public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
                events.add(event);
            }
        });
    }

    private void pass(int seconds) {
        channel.advanceTimeBy(seconds, TimeUnit.SECONDS);
        channel.runScheduledPendingTasks();
    }

    @Test
    void aConnectionThatDoesNothingIsIdleOncePerTimeout() {
        pass(9);
        assertEquals(List.of(), events);
        pass(1);
        assertEquals(List.of(IdleStateEvent.FIRST_ALL_IDLE_STATE_EVENT), events);
        pass(10);
        assertEquals(List.of(IdleStateEvent.FIRST_ALL_IDLE_STATE_EVENT, IdleStateEvent.ALL_IDLE_STATE_EVENT), events);
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void aReadOrAWriteStartsTheTimeoutAgain() {
        pass(6);
        channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {1}));
        pass(6);
        assertEquals(List.of(), events, "read 6 s ago");
        channel.writeOutbound(Unpooled.wrappedBuffer(new byte[] {2}));
        pass(6);
        assertEquals(List.of(), events, "written 6 s ago");
        pass(4);
        assertEquals(List.of(IdleStateEvent.FIRST_ALL_IDLE_STATE_EVENT), events);
        channel.writeOutbound(Unpooled.wrappedBuffer(new byte[] {3}));
        pass(10);
        assertEquals(
                List.of(IdleStateEvent.FIRST_ALL_IDLE_STATE_EVENT, IdleStateEvent.FIRST_ALL_IDLE_STATE_EVENT),
                events,
                "idle again after activity: a first event again");
        channel.finishAndReleaseAll();
    }

    @Test
    void aClosedConnectionIsNeverIdle() {
        channel.close();
        pass(30);
        assertEquals(List.of(), events);
    }

    @Test
    void aTimeoutMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> new IdleTimeout(0, TimeUnit.SECONDS));
    }
}
