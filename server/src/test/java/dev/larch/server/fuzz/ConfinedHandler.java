package dev.larch.server.fuzz;

import java.util.IdentityHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.larch.server.protocol.ConnectionEvent;
import dev.larch.server.protocol.Operation;
import dev.larch.server.protocol.RequestHandler;
import dev.larch.server.protocol.Session;
import io.netty.util.concurrent.EventExecutor;
import org.apache.directory.api.ldap.model.message.Request;
import org.apache.directory.api.ldap.model.message.Response;
import org.apache.directory.api.ldap.model.message.ResultResponse;

/**
 * Wraps the real request handler so that every operation it is handed runs its asynchronous parts
 * on a {@link ConfinedExecutor}: completions from the writer thread or a worker thread are delivered
 * on the fuzzing thread. Everything else is passed through unchanged, so the handlers under test are
 * the production ones.
 *
 * <p>Also counts operations that are in the handler's hands (handed over, neither completed nor
 * ended): a case has settled only when that count is zero. Used on the fuzzing thread, except
 * {@link Confined#complete}, which any thread may call.
 */
final class ConfinedHandler implements RequestHandler {
    private final RequestHandler delegate;
    private final ConfinedExecutor executor;
    private final IdentityHashMap<Operation, Confined> byChannelOperation = new IdentityHashMap<>();
    private final AtomicInteger inHand = new AtomicInteger();

    ConfinedHandler(RequestHandler delegate, ConfinedExecutor executor) {
        this.delegate = delegate;
        this.executor = executor;
    }

    int inHand() {
        return inHand.get();
    }

    @Override
    public void handle(Operation operation) {
        Confined confined = new Confined(operation);
        byChannelOperation.put(operation, confined);
        inHand.incrementAndGet();
        delegate.handle(confined);
    }

    @Override
    public void ended(Operation operation, ResultResponse response) {
        Confined confined = byChannelOperation.remove(operation);
        if (confined == null) {
            delegate.ended(operation, response); // answered without reaching handle()
            return;
        }
        confined.settle();
        delegate.ended(confined, response);
    }

    @Override
    public void connectionEvent(Session session, ConnectionEvent event) {
        delegate.connectionEvent(session, event);
    }

    /** Forgets operations of closed channels whose end the dispatcher never reported (closing). */
    void forgetAll() {
        byChannelOperation.values().forEach(Confined::settle);
        byChannelOperation.clear();
    }

    private final class Confined implements Operation {
        private final Operation channelOperation;
        private final AtomicBoolean settled = new AtomicBoolean();

        Confined(Operation channelOperation) {
            this.channelOperation = channelOperation;
        }

        void settle() {
            if (settled.compareAndSet(false, true)) {
                inHand.decrementAndGet();
            }
        }

        @Override
        public Request request() {
            return channelOperation.request();
        }

        @Override
        public Session session() {
            return channelOperation.session();
        }

        @Override
        public EventExecutor executor() {
            return executor;
        }

        @Override
        public boolean send(Response response) {
            return channelOperation.send(response);
        }

        @Override
        public boolean isWritable() {
            return channelOperation.isWritable();
        }

        @Override
        public void onWritable(Runnable resume) {
            channelOperation.onWritable(resume);
        }

        @Override
        public boolean isAbandoned() {
            return channelOperation.isAbandoned();
        }

        @Override
        public void complete(ResultResponse response) {
            if (executor.inEventLoop()) {
                completeHere(response);
            } else {
                executor.execute(() -> completeHere(response));
            }
        }

        private void completeHere(ResultResponse response) {
            channelOperation.complete(response);
            settle();
        }

        @Override
        public void closeConnection(String reason) {
            channelOperation.closeConnection(reason);
        }

        @Override
        public int entriesSent() {
            return channelOperation.entriesSent();
        }

        @Override
        public long startNanos() {
            return channelOperation.startNanos();
        }
    }
}
