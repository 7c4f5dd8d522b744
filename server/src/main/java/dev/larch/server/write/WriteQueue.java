package dev.larch.server.write;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import dev.larch.server.error.FailureResults;
import dev.larch.server.protocol.Operation;
import dev.larch.server.store.LmdbStore;
import dev.larch.server.store.WriteTxn;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.message.ResultResponseRequest;

/**
 * Runs write operations one at a time on a dedicated thread, off the event loops: LMDB has a
 * single writer, and a durable commit waits for the disk.
 *
 * <p>Each write gets its own transaction; the response is sent only after the commit (and its
 * sync) returned, so an acknowledged write is durable.
 */
public final class WriteQueue implements AutoCloseable {
    private final LmdbStore store;
    private final ExecutorService writer = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "larch-writer");
        t.setDaemon(true);
        return t;
    });

    public WriteQueue(LmdbStore store) {
        this.store = store;
    }

    /** Applies {@code work} in a write transaction, commits, then completes {@code op}. */
    public void submit(Operation op, Function<WriteTxn, ResultResponse> work) {
        writer.execute(() -> {
            if (op.isAbandoned()) {
                return;
            }
            ResultResponse response;
            try (WriteTxn txn = store.write()) {
                response = work.apply(txn);
                txn.commit();
            } catch (Throwable failure) {
                response = FailureResults.fill(((ResultResponseRequest) op.request()).getResultResponse(), failure);
            }
            op.complete(response);
        });
    }

    /** Lets queued writes finish (up to the timeout), then stops the writer thread. */
    @Override
    public void close() {
        writer.shutdown();
        try {
            writer.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
