package dev.larch.server.auth;

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

    public ActingOperation(Operation original, Session acting) {
        this.original = original;
        this.acting = acting;
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
