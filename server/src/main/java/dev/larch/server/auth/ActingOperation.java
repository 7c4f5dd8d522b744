package dev.larch.server.auth;

import java.util.List;
import java.util.function.Consumer;

import dev.larch.server.protocol.Operation;
import dev.larch.server.protocol.Session;
import io.netty.util.concurrent.EventExecutor;
import org.apache.directory.api.ldap.model.message.Request;
import org.apache.directory.api.ldap.model.message.Response;
import org.apache.directory.api.ldap.model.message.ResultResponse;

/**
 * An operation run with another session than its connection's current one: another identity (proxied
 * authorization), or the identity the connection had when the operation was admitted
 * ({@link Session#admitted}). Everything but the session is the original's.
 */
public final class ActingOperation implements Operation {
    private final Operation original;
    private final Session acting;
    /** Sees the final response before the client does; null for none. */
    private final Consumer<ResultResponse> beforeAnswer;

    public ActingOperation(Operation original, Session acting) {
        this(original, acting, null);
    }

    /** @param beforeAnswer sees the final response before it is sent; null for none */
    public ActingOperation(Operation original, Session acting, Consumer<ResultResponse> beforeAnswer) {
        this.original = original;
        this.acting = acting;
        this.beforeAnswer = beforeAnswer;
    }

    @Override
    public Request request() {
        return original.request();
    }

    @Override
    public Session session() {
        return acting;
    }

    @Override
    public EventExecutor executor() {
        return original.executor();
    }

    @Override
    public boolean send(Response response) {
        return original.send(response);
    }

    @Override
    public boolean sendAll(List<? extends Response> responses) {
        return original.sendAll(responses);
    }

    @Override
    public boolean isWritable() {
        return original.isWritable();
    }

    @Override
    public void onWritable(Runnable resume) {
        original.onWritable(resume);
    }

    @Override
    public boolean isAbandoned() {
        return original.isAbandoned();
    }

    @Override
    public void complete(ResultResponse response) {
        if (beforeAnswer != null) {
            beforeAnswer.accept(response);
        }
        original.complete(response);
    }

    @Override
    public void closeConnection(String reason) {
        original.closeConnection(reason);
    }

    @Override
    public int entriesSent() {
        return original.entriesSent();
    }

    @Override
    public long startNanos() {
        return original.startNanos();
    }

    @Override
    public void recordPlan(Object plan) {
        original.recordPlan(plan);
    }

    @Override
    public Object plan() {
        return original.plan();
    }
}
