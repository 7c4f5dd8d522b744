package dev.larch.server.net;

import java.util.concurrent.TimeUnit;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.Future;

/**
 * Fires {@link IdleStateEvent#FIRST_ALL_IDLE_STATE_EVENT}, then {@link IdleStateEvent#ALL_IDLE_STATE_EVENT}
 * once per timeout, while a connection has neither read anything nor been handed anything to write
 * for the timeout: Netty's {@link IdleStateHandler} with an all-idle time alone, except that a write
 * counts when it is handed on rather than when it completes. IdleStateHandler learns of completion
 * through a listener on each write's promise, so each response made a promise and a listener list
 * (about 190 bytes a one-entry search, whose entry and done are two writes). A write that never
 * completes, to a client that stopped reading, makes no difference that lasts: while the channel is
 * not writable nothing more is handed on (a search pauses), and the connection goes idle counted
 * from its last hand-over rather than its last completed write.
 *
 * <p>Time is the event loop's ticker. Stateful: one per channel, used on its event loop. Public so
 * that a benchmark can hold it to IdleStateHandler.
 */
public final class IdleTimeout extends ChannelDuplexHandler {
    private final long timeoutNanos;
    private ChannelHandlerContext ctx;
    /** When the connection last finished reading or was handed a write. */
    private long lastActivity;

    private boolean reading;
    private boolean firstEvent = true;
    private boolean started;
    private boolean stopped;
    private Future<?> check;

    public IdleTimeout(long timeout, TimeUnit unit) {
        if (timeout <= 0) {
            throw new IllegalArgumentException("idle timeout must be positive: " + timeout);
        }
        this.timeoutNanos = unit.toNanos(timeout);
    }

    @Override
    public void handlerAdded(ChannelHandlerContext context) {
        ctx = context;
        if (context.channel().isActive() && context.channel().isRegistered()) {
            start(context);
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext context) {
        stop();
    }

    @Override
    public void channelRegistered(ChannelHandlerContext context) {
        if (context.channel().isActive()) {
            start(context);
        }
        context.fireChannelRegistered();
    }

    @Override
    public void channelActive(ChannelHandlerContext context) {
        start(context);
        context.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext context) {
        stop();
        context.fireChannelInactive();
    }

    @Override
    public void channelRead(ChannelHandlerContext context, Object msg) {
        reading = true;
        firstEvent = true;
        context.fireChannelRead(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext context) {
        if (reading) {
            lastActivity = now();
            reading = false;
        }
        context.fireChannelReadComplete();
    }

    @Override
    public void write(ChannelHandlerContext context, Object msg, ChannelPromise promise) {
        lastActivity = now();
        firstEvent = true;
        context.write(msg, promise);
    }

    private void start(ChannelHandlerContext context) {
        if (started || stopped) {
            return;
        }
        started = true;
        lastActivity = now();
        check = context.executor().schedule(this::checkIdle, timeoutNanos, TimeUnit.NANOSECONDS);
    }

    private void stop() {
        stopped = true;
        if (check != null) {
            check.cancel(false);
            check = null;
        }
    }

    /** Fires the event when the timeout has passed since the last activity; else looks again when it will have. */
    private void checkIdle() {
        if (stopped || !ctx.channel().isOpen()) {
            return;
        }
        long untilIdle = reading ? timeoutNanos : timeoutNanos - (now() - lastActivity);
        if (untilIdle > 0) {
            check = ctx.executor().schedule(this::checkIdle, untilIdle, TimeUnit.NANOSECONDS);
            return;
        }
        check = ctx.executor().schedule(this::checkIdle, timeoutNanos, TimeUnit.NANOSECONDS);
        IdleStateEvent event =
                firstEvent ? IdleStateEvent.FIRST_ALL_IDLE_STATE_EVENT : IdleStateEvent.ALL_IDLE_STATE_EVENT;
        firstEvent = false;
        ctx.fireUserEventTriggered(event);
    }

    private long now() {
        return ctx.executor().ticker().nanoTime();
    }
}
