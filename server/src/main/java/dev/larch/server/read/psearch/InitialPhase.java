package dev.larch.server.read.psearch;

import java.util.List;

import dev.larch.server.protocol.Operation;
import dev.larch.server.protocol.Session;
import io.netty.util.concurrent.EventExecutor;
import org.apache.directory.api.ldap.model.message.Request;
import org.apache.directory.api.ldap.model.message.Response;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;

/**
 * A persistent search's operation as its initial phase (changesOnly false: the entries already there,
 * sent like a normal search's) sees it. The search's success is not the end: it turns the subscriber
 * live instead of being sent. Any other result ends the persistent search with it. Once the
 * persistent search ended (time limit, shutdown), the initial phase counts as abandoned and stops.
 */
final class InitialPhase implements Operation {
    private final Operation op;
    private final Subscriber subscriber;

    InitialPhase(Operation op, Subscriber subscriber) {
        this.op = op;
        this.subscriber = subscriber;
    }

    @Override
    public void complete(ResultResponse response) {
        if (response.getLdapResult().getResultCode() != ResultCodeEnum.SUCCESS) {
            subscriber.end(response);
            return;
        }
        if (op.executor().inEventLoop()) {
            subscriber.goLive();
        } else {
            op.executor().execute(subscriber::goLive);
        }
    }

    @Override
    public boolean isAbandoned() {
        return subscriber.hasEnded() || op.isAbandoned();
    }

    @Override
    public Request request() {
        return op.request();
    }

    @Override
    public Session session() {
        return op.session();
    }

    @Override
    public EventExecutor executor() {
        return op.executor();
    }

    @Override
    public boolean send(Response response) {
        return op.send(response);
    }

    @Override
    public boolean sendAll(List<? extends Response> responses) {
        return op.sendAll(responses);
    }

    @Override
    public boolean isWritable() {
        return op.isWritable();
    }

    @Override
    public void onWritable(Runnable resume) {
        op.onWritable(resume);
    }

    @Override
    public void closeConnection(String reason) {
        op.closeConnection(reason);
    }

    @Override
    public int entriesSent() {
        return op.entriesSent();
    }

    @Override
    public long startNanos() {
        return op.startNanos();
    }

    @Override
    public void recordPlan(Object plan) {
        op.recordPlan(plan);
    }

    @Override
    public Object plan() {
        return op.plan();
    }
}
