package dev.larch.server.commit;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;

import dev.larch.server.error.FailureResults;
import dev.larch.server.protocol.Operation;
import dev.larch.server.protocol.WireResultCode;
import dev.larch.server.store.WriteTxn;
import org.apache.directory.api.ldap.model.message.Control;
import org.apache.directory.api.ldap.model.message.LdapResult;
import org.apache.directory.api.ldap.model.message.Request;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.message.ResultResponseRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One write waiting for the writer: a client's operation, or work the server does on its own. The
 * {@link GroupCommit} runs it in a transaction and then tells it exactly one outcome: {@link
 * #committed} (its changes are durable), {@link #discarded} (it ran in full and its changes were
 * thrown away as asked) or {@link #failed} (nothing of it was kept). Its work may run more than
 * once, each run in a transaction rolled back before the next (see {@link GroupCommit}).
 *
 * <p>Created on any thread, then used on the writer thread only.
 */
abstract sealed class WriteTask implements Queued permits WriteTask.Client, WriteTask.Internal, WriteTask.Awaited {
    private static final Logger LOG = LoggerFactory.getLogger(WriteTask.class);

    /** Whether to drop it unrun: the client abandoned it or left. */
    abstract boolean abandoned();

    /**
     * Whether its changes are to be thrown away rather than committed (the no-op control).
     *
     * @throws dev.larch.server.error.ResultCodeException protocolError for a malformed control
     */
    abstract boolean discardsChanges();

    /**
     * Applies the work in {@code txn}. A failure it throws means the transaction must be aborted.
     *
     * @return the response to a success; null for the server's own work
     */
    abstract ResultResponse apply(WriteTxn txn);

    /**
     * Its changes are durable; {@code listener} (null for none) is told of a client's request first.
     */
    abstract void committed(ResultResponse response, Consumer<Request> listener);

    /** It ran in full and its transaction was aborted as it asked: nothing changed. */
    abstract void discarded(ResultResponse response);

    /** It failed: nothing of it was kept. */
    abstract void failed(Throwable failure);

    /** A client's add, delete, modify, modify DN or password change, answered once. */
    static final class Client extends WriteTask {
        private final Operation op;
        private final Function<WriteTxn, ResultResponse> work;
        private int runs;

        Client(Operation op, Function<WriteTxn, ResultResponse> work) {
            this.op = op;
            this.work = work;
        }

        @Override
        boolean abandoned() {
            return op.isAbandoned();
        }

        @Override
        boolean discardsChanges() {
            return NoOperation.requested(op.request());
        }

        @Override
        ResultResponse apply(WriteTxn txn) {
            if (runs++ > 0) {
                forgetEarlierRun();
            }
            return work.apply(txn);
        }

        @Override
        void committed(ResultResponse response, Consumer<Request> listener) {
            if (listener != null) {
                try {
                    listener.accept(op.request());
                } catch (RuntimeException e) {
                    // The change is durable: the client is told so whatever a listener does.
                    LOG.error("a listener failed after a committed write", e);
                }
            }
            op.complete(response);
        }

        @Override
        void discarded(ResultResponse response) {
            op.complete(NoOperation.answer(response));
        }

        @Override
        void failed(Throwable failure) {
            op.complete(FailureResults.fill(requestsResponse(), failure));
        }

        private ResultResponse requestsResponse() {
            return ((ResultResponseRequest) op.request()).getResultResponse();
        }

        /**
         * Handlers fill the response their request keeps (result, controls such as post-read): a run
         * whose transaction was rolled back must leave nothing of it for the next run to send.
         */
        private void forgetEarlierRun() {
            ResultResponse response = requestsResponse();
            for (Control control : List.copyOf(response.getControls().values())) {
                response.removeControl(control);
            }
            LdapResult result = response.getLdapResult();
            result.setResultCode(ResultCodeEnum.SUCCESS);
            result.setDiagnosticMessage(null);
            result.setMatchedDn(null);
            result.setReferral(null);
            WireResultCode.clear(response);
        }
    }

    /** Work the server does on its own (password policy state); no client waits for it. */
    static final class Internal extends WriteTask {
        private final String what;
        private final Consumer<WriteTxn> work;

        /** @param what names the work in the log line of a failure */
        Internal(String what, Consumer<WriteTxn> work) {
            this.what = what;
            this.work = work;
        }

        @Override
        boolean abandoned() {
            return false;
        }

        @Override
        boolean discardsChanges() {
            return false;
        }

        @Override
        ResultResponse apply(WriteTxn txn) {
            work.accept(txn);
            return null;
        }

        @Override
        void committed(ResultResponse response, Consumer<Request> listener) {}

        @Override
        void discarded(ResultResponse response) {}

        @Override
        void failed(Throwable failure) {
            LOG.warn("could not write {}: {}", what, failure.toString());
        }
    }

    /** Work the server does on its own whose caller waits for the outcome: a replica's batch. */
    static final class Awaited extends WriteTask {
        private final Consumer<WriteTxn> work;
        private final CompletableFuture<Void> outcome;

        Awaited(Consumer<WriteTxn> work, CompletableFuture<Void> outcome) {
            this.work = work;
            this.outcome = outcome;
        }

        @Override
        boolean abandoned() {
            return false;
        }

        @Override
        boolean discardsChanges() {
            return false;
        }

        @Override
        ResultResponse apply(WriteTxn txn) {
            work.accept(txn);
            return null;
        }

        @Override
        void committed(ResultResponse response, Consumer<Request> listener) {
            outcome.complete(null);
        }

        @Override
        void discarded(ResultResponse response) {
            outcome.complete(null);
        }

        @Override
        void failed(Throwable failure) {
            outcome.completeExceptionally(failure);
        }
    }
}
