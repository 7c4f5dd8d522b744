package dev.larch.server.net;

import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.larch.server.protocol.Operation;
import dev.larch.server.protocol.Session;
import io.netty.channel.Channel;
import io.netty.util.concurrent.EventExecutor;
import org.apache.directory.api.ldap.model.message.Request;
import org.apache.directory.api.ldap.model.message.Response;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.message.SearchResultEntry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One request of one connection, as handed to the {@link dev.larch.server.protocol.RequestHandler}.
 * Everything but {@link #complete} runs on the connection's event loop; {@link #complete} may be called
 * from any thread and hops to the event loop.
 */
final class ChannelOperation implements Operation {

    private static final Logger LOG = LoggerFactory.getLogger(ChannelOperation.class);

    private final LdapDispatcher connection;
    private final Request request;
    private final long startNanos;
    private final AtomicBoolean completed = new AtomicBoolean();
    private volatile boolean abandoned;
    private volatile int entriesSent;
    /**
     * Written by the search (maybe on a worker) before {@link #complete}, read in the handler's
     * {@code ended} on the event loop: the hop through the event loop's queue orders the two, so a
     * plain field suffices and a search pays one store for it.
     */
    private Object plan;
    /** The request's PDU size as counted against the connection's {@link PendingBytes}; 0 once given back. */
    private int pendingBytes;

    ChannelOperation(LdapDispatcher connection, Request request, long startNanos) {
        this(connection, request, startNanos, 0);
    }

    /** @param pendingBytes what the request counts against the connection's pending bytes */
    ChannelOperation(LdapDispatcher connection, Request request, long startNanos, int pendingBytes) {
        this.connection = connection;
        this.request = request;
        this.startNanos = startNanos;
        this.pendingBytes = pendingBytes;
    }

    /** What this request counts against its connection's pending bytes, then 0: each byte is given back once. Event loop only. */
    int takePendingBytes() {
        int bytes = pendingBytes;
        pendingBytes = 0;
        return bytes;
    }

    @Override
    public Request request() {
        return request;
    }

    @Override
    public Session session() {
        return connection.session();
    }

    @Override
    public EventExecutor executor() {
        return connection.executor();
    }

    /** The connection's channel; tests look at its outbound buffer. */
    Channel channel() {
        return connection.channel();
    }

    int messageId() {
        return request.getMessageId();
    }

    @Override
    @SuppressWarnings("NonAtomicVolatileUpdate") // only the event loop writes; other threads only read
    public boolean send(Response response) {
        assert executor().inEventLoop() : "send() off the event loop";
        if (abandoned || completed.get()) {
            return false;
        }
        if (response instanceof SearchResultEntry) {
            entriesSent++;
        }
        return connection.write(this, response);
    }

    @Override
    @SuppressWarnings("NonAtomicVolatileUpdate") // only the event loop writes; other threads only read
    public boolean sendAll(List<? extends Response> responses) {
        assert executor().inEventLoop() : "sendAll() off the event loop";
        if (abandoned || completed.get()) {
            return false;
        }
        for (Response response : responses) {
            if (response instanceof SearchResultEntry) {
                entriesSent++;
            }
        }
        return connection.writeAll(this, responses);
    }

    @Override
    public boolean isWritable() {
        return connection.isWritable();
    }

    @Override
    public void onWritable(Runnable resume) {
        assert executor().inEventLoop() : "onWritable() off the event loop";
        connection.whenWritable(this, resume);
    }

    @Override
    public boolean isAbandoned() {
        return abandoned;
    }

    void markAbandoned() {
        abandoned = true;
    }

    boolean isCompleted() {
        return completed.get();
    }

    @Override
    public void complete(ResultResponse response) {
        if (!completed.compareAndSet(false, true)) {
            if (!abandoned) {
                LOG.warn(
                        "conn={} op={} completed more than once; later response dropped",
                        session().id(),
                        messageId());
            }
            return;
        }
        EventExecutor executor = executor();
        if (executor.inEventLoop()) {
            connection.finish(this, response);
            return;
        }
        try {
            executor.execute(() -> connection.finish(this, response));
        } catch (RejectedExecutionException e) {
            LOG.debug(
                    "conn={} op={} completed after shutdown; response dropped",
                    session().id(),
                    messageId());
        }
    }

    @Override
    public void closeConnection(String reason) {
        EventExecutor executor = executor();
        if (executor.inEventLoop()) {
            connection.closeNow(reason);
            return;
        }
        try {
            executor.execute(() -> connection.closeNow(reason));
        } catch (RejectedExecutionException e) {
            LOG.debug("conn={} already closed", session().id());
        }
    }

    @Override
    public int entriesSent() {
        return entriesSent;
    }

    @Override
    public long startNanos() {
        return startNanos;
    }

    @Override
    public void recordPlan(Object searchPlan) {
        plan = searchPlan;
    }

    @Override
    public Object plan() {
        return plan;
    }
}
