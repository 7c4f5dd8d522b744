package dev.larch.server.commit;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import dev.larch.server.protocol.Operation;
import dev.larch.server.protocol.Session;
import dev.larch.server.store.LmdbStore;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.store.StoreOptions;
import dev.larch.server.store.WriteTxn;
import io.netty.util.concurrent.EventExecutor;
import org.apache.directory.api.ldap.model.message.Control;
import org.apache.directory.api.ldap.model.message.ModifyRequest;
import org.apache.directory.api.ldap.model.message.ModifyRequestImpl;
import org.apache.directory.api.ldap.model.message.Response;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * A real store in a temporary directory and writes against it, as the handlers submit theirs: raw
 * records put by ID, read back in fresh read transactions. Closes every queue it made, then the store.
 */
final class WriterFixture implements AutoCloseable {
    private static final AtomicInteger MESSAGE_IDS = new AtomicInteger(1);

    final LmdbStore store;
    private final List<WriteQueue> queues = new ArrayList<>();

    WriterFixture(Path dir, long mapSizeBytes) {
        this.store = LmdbStore.open(dir, new StoreOptions(mapSizeBytes, 16, false), Map.of());
    }

    WriteQueue queue(int maxOperations) {
        return keep(new WriteQueue(store, maxOperations));
    }

    WriteQueue keep(WriteQueue queue) {
        queues.add(queue);
        return queue;
    }

    /**
     * Occupies the writer with a write of the server's own (which commits, changing nothing) until the
     * returned latch is counted down: what is submitted meanwhile waits, and then goes together.
     */
    static CountDownLatch hold(WriteQueue queue) {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        queue.submitInternal("the writer held by the test", txn -> {
            started.countDown();
            await(release);
        });
        await(started);
        return release;
    }

    static void await(CountDownLatch latch) {
        try {
            if (!latch.await(20, TimeUnit.SECONDS)) {
                throw new AssertionError("waited 20 s for a latch");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** Work that puts record {@code id} (its value: "value-<id>") and succeeds. */
    static Function<WriteTxn, ResultResponse> put(Op op, long id) {
        return txn -> {
            txn.putEntry(id, value(id));
            return op.success();
        };
    }

    static byte[] value(long id) {
        return ("value-" + id).getBytes(UTF_8);
    }

    /** Record {@code id} as committed now, or null. */
    String stored(long id) {
        try (ReadTxn txn = store.read()) {
            ByteBuffer bytes = txn.entry(id);
            return bytes == null ? null : UTF_8.decode(bytes).toString();
        }
    }

    @Override
    public void close() {
        queues.forEach(WriteQueue::close);
        store.close();
    }

    /** A client's modify as the protocol layer hands it over, remembering its one answer. */
    static final class Op implements Operation {
        final ModifyRequest request = new ModifyRequestImpl();
        final CompletableFuture<ResultResponse> answer = new CompletableFuture<>();
        final AtomicInteger answers = new AtomicInteger();
        volatile boolean abandoned;

        Op(Control... controls) {
            request.setMessageId(MESSAGE_IDS.getAndIncrement());
            for (Control control : controls) {
                request.addControl(control);
            }
        }

        ResultResponse success() {
            ResultResponse response = request.getResultResponse();
            response.getLdapResult().setResultCode(ResultCodeEnum.SUCCESS);
            return response;
        }

        /** The answer, waiting for it at most 20 seconds. */
        ResultResponse result() {
            try {
                return answer.get(20, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new AssertionError("no answer to message " + request.getMessageId(), e);
            }
        }

        ResultCodeEnum code() {
            return result().getLdapResult().getResultCode();
        }

        @Override
        public ModifyRequest request() {
            return request;
        }

        @Override
        public Session session() {
            return null;
        }

        @Override
        public EventExecutor executor() {
            return null;
        }

        @Override
        public boolean send(Response response) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean isWritable() {
            return true;
        }

        @Override
        public void onWritable(Runnable resume) {
            resume.run();
        }

        @Override
        public boolean isAbandoned() {
            return abandoned;
        }

        @Override
        public void complete(ResultResponse response) {
            answers.incrementAndGet();
            answer.complete(response);
        }

        @Override
        public int entriesSent() {
            return 0;
        }

        @Override
        public long startNanos() {
            return 0;
        }
    }
}
