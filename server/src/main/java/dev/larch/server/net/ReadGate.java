package dev.larch.server.net;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;

/**
 * Stops and restarts reading from one connection. The first handler of the pipeline: while the gate
 * is shut, auto-read is off and the {@link LdapFrameDecoder} stops handing on requests
 * ({@link #isOpen()}). It still reads, on its own {@code read()} requests, until what it holds reaches
 * its byte budget, so that an Abandon or Unbind sent behind the held requests gets through; then it
 * {@linkplain #stopReading() stops reading} and every {@code read()} request is held back, so the
 * socket is not read at all until the gate opens.
 *
 * <p>When the gate opens again, the frames already buffered are handed on first (they may shut it
 * again) and only then is the socket read, from a task of its own so that opening never re-enters the
 * handlers that are running.
 *
 * <p>Stateful: one instance per channel; used on the channel's event loop only.
 */
final class ReadGate extends ChannelOutboundHandlerAdapter {

    private ChannelHandlerContext ctx;
    private boolean open = true;
    /** Set while shut and the frame decoder's budget is spent: the socket is not read at all. */
    private boolean stopped;

    private boolean resumeScheduled;

    @Override
    public void handlerAdded(ChannelHandlerContext context) {
        this.ctx = context;
    }

    boolean isOpen() {
        return open;
    }

    /** Whether reading stopped altogether (shut, and the decoder holds all it may). */
    boolean isStopped() {
        return stopped;
    }

    /** While shut, stops reading altogether until the gate opens. */
    void stopReading() {
        if (!open) {
            stopped = true;
        }
    }

    /** Stops reading; frames already buffered stay buffered. Idempotent. */
    void shut() {
        if (open) {
            open = false;
            ctx.channel().config().setAutoRead(false);
        }
    }

    /** Resumes reading, soon and from a task of its own. Idempotent. */
    void open() {
        if (open) {
            return;
        }
        open = true;
        stopped = false;
        if (!resumeScheduled) {
            resumeScheduled = true;
            ctx.executor().execute(this::resume);
        }
    }

    private void resume() {
        resumeScheduled = false;
        if (!open || !ctx.channel().isActive()) {
            return;
        }
        // A read of zero bytes makes the frame decoder go through what it holds.
        ctx.fireChannelRead(Unpooled.EMPTY_BUFFER);
        ctx.fireChannelReadComplete();
        if (open) {
            ctx.channel().config().setAutoRead(true);
        }
    }

    @Override
    public void read(ChannelHandlerContext context) {
        if (open || !stopped) {
            context.read();
        }
    }
}
