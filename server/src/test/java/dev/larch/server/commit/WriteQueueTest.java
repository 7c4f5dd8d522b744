package dev.larch.server.commit;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import dev.larch.server.commit.WriterFixture.Op;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static dev.larch.server.commit.WriterFixture.hold;
import static dev.larch.server.commit.WriterFixture.put;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How the queue forms batches: what waits goes together, up to the bound, never across an action
 * between writes; abandoned writes are dropped; closing drains, then refuses. The writer is held by a
 * write of the test's own while the others queue, so each batch is known exactly.
 */
class WriteQueueTest {
    @TempDir
    Path dir;

    private WriterFixture fixture;

    @BeforeEach
    void open() {
        fixture = new WriterFixture(dir, 64L << 20);
    }

    @AfterEach
    void close() {
        fixture.close();
    }

    private List<Op> submitPuts(WriteQueue queue, long firstId, int count) {
        List<Op> ops = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Op op = new Op();
            queue.submit(op, put(op, firstId + i));
            ops.add(op);
        }
        return ops;
    }

    @Test
    void writesWaitingForTheWriterShareOneTransaction() {
        WriteQueue queue = fixture.queue(256);
        CountDownLatch release = hold(queue);
        List<Op> ops = submitPuts(queue, 1, 10);
        assertEquals(10, queue.queued());
        release.countDown();
        ops.forEach(op -> assertEquals(ResultCodeEnum.SUCCESS, op.code()));
        for (long id = 1; id <= 10; id++) {
            assertEquals("value-" + id, fixture.stored(id));
        }
        // The held write alone, then the ten together.
        assertEquals(2, queue.transactionsCommitted());
        assertEquals(11, queue.operationsCommitted());
        assertEquals(0, queue.queued());
    }

    @Test
    void aTransactionHoldsAtMostMaxOperations() {
        WriteQueue queue = fixture.queue(3);
        CountDownLatch release = hold(queue);
        List<Op> ops = submitPuts(queue, 1, 7);
        release.countDown();
        ops.forEach(op -> assertEquals(ResultCodeEnum.SUCCESS, op.code()));
        // 1 + 3 + 3 + 1: the held write, then batches of at most three.
        assertEquals(4, queue.transactionsCommitted());
        assertEquals(8, queue.operationsCommitted());
    }

    @Test
    void maxOperationsOfOneCommitsEveryWriteAlone() {
        WriteQueue queue = fixture.queue(1);
        CountDownLatch release = hold(queue);
        List<Op> ops = submitPuts(queue, 1, 5);
        release.countDown();
        ops.forEach(op -> assertEquals(ResultCodeEnum.SUCCESS, op.code()));
        assertEquals(6, queue.transactionsCommitted());
        assertEquals(6, queue.operationsCommitted());
    }

    @Test
    void anActionBetweenWritesEndsABatchAndTheNextBeginsAfterIt() {
        WriteQueue queue = fixture.queue(256);
        CountDownLatch release = hold(queue);
        List<Op> before = submitPuts(queue, 1, 2);
        List<String> seen = new ArrayList<>();
        AtomicInteger transactions = new AtomicInteger();
        assertTrue(queue.runBetweenWrites(() -> {
            seen.add(fixture.stored(1));
            seen.add(fixture.stored(2));
            seen.add(fixture.stored(3));
            transactions.set((int) queue.transactionsCommitted());
        }));
        List<Op> after = submitPuts(queue, 3, 2);
        release.countDown();
        after.forEach(op -> assertEquals(ResultCodeEnum.SUCCESS, op.code()));
        before.forEach(op -> assertEquals(ResultCodeEnum.SUCCESS, op.code()));
        // Every write queued before it committed; none queued after it had begun.
        assertEquals(Arrays.asList("value-1", "value-2", null), seen);
        assertEquals(2, transactions.get());
        assertEquals(3, queue.transactionsCommitted());
    }

    @Test
    void abandonedWritesAreDroppedUnrunAndUnanswered() {
        WriteQueue queue = fixture.queue(256);
        CountDownLatch release = hold(queue);
        Op gone = new Op();
        AtomicInteger runs = new AtomicInteger();
        queue.submit(gone, txn -> {
            runs.incrementAndGet();
            return put(gone, 1).apply(txn);
        });
        gone.abandoned = true;
        List<Op> others = submitPuts(queue, 2, 2);
        release.countDown();
        others.forEach(op -> assertEquals(ResultCodeEnum.SUCCESS, op.code()));
        assertEquals(0, runs.get());
        assertEquals(0, gone.answers.get());
        assertNull(fixture.stored(1));
    }

    @Test
    void closingFinishesWhatWaitsThenRefusesMore() {
        WriteQueue queue = fixture.queue(256);
        CountDownLatch release = hold(queue);
        List<Op> waiting = submitPuts(queue, 1, 3);
        Thread releaser = new Thread(() -> {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            release.countDown();
        });
        releaser.start();
        assertTrue(queue.close(Duration.ofSeconds(20)));
        waiting.forEach(op -> assertEquals(ResultCodeEnum.SUCCESS, op.code()));
        assertEquals("value-3", fixture.stored(3));

        Op late = new Op();
        queue.submit(late, put(late, 9));
        assertEquals(ResultCodeEnum.UNAVAILABLE, late.code());
        assertNull(fixture.stored(9));
        assertFalse(queue.runBetweenWrites(() -> {}));
    }
}
