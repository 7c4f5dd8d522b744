package dev.larch.server.commit;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import dev.larch.server.commit.WriterFixture.Op;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.protocol.WireResultCode;
import dev.larch.server.store.StoreException;
import dev.larch.server.store.WriteTxn;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.message.controls.OpaqueControl;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static dev.larch.server.commit.WriterFixture.hold;
import static dev.larch.server.commit.WriterFixture.put;
import static dev.larch.server.commit.WriterFixture.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a write sees of its batch: it succeeds, fails or is discarded alone, its hooks run only once
 * the shared transaction committed, and a failed shared commit or a failure that sharing may have
 * caused never decides its answer. Each test holds the writer while its writes queue, so they are
 * known to share one batch.
 */
class GroupCommitTest {
    @TempDir
    Path dir;

    private WriterFixture fixture;

    @BeforeEach
    void open() {
        fixture = new WriterFixture(dir.resolve("store"), 64L << 20);
    }

    @AfterEach
    void close() {
        fixture.close();
    }

    /** A queue whose top-level commits go through {@code commit}. */
    private WriteQueue queue(Consumer<WriteTxn> commit) {
        return fixture.keep(new WriteQueue(new GroupCommit(fixture.store, commit), 256));
    }

    private static Op putting(WriteQueue queue, long id) {
        Op op = new Op();
        queue.submit(op, put(op, id));
        return op;
    }

    @Test
    void aWriteFailingItsChecksFailsAloneWhileItsBatchMatesCommit() {
        WriteQueue queue = fixture.queue(256);
        CountDownLatch release = hold(queue);
        Op first = putting(queue, 1);
        Op failing = new Op();
        queue.submit(failing, txn -> {
            txn.putEntry(2, value(2));
            throw new ResultCodeException(ResultCodeEnum.NO_SUCH_OBJECT, "no such entry: uid=missing");
        });
        Op last = putting(queue, 3);
        release.countDown();

        assertEquals(ResultCodeEnum.SUCCESS, first.code());
        assertEquals(ResultCodeEnum.NO_SUCH_OBJECT, failing.code());
        assertEquals(
                "no such entry: uid=missing", failing.result().getLdapResult().getDiagnosticMessage());
        assertEquals(ResultCodeEnum.SUCCESS, last.code());
        assertEquals("value-1", fixture.stored(1));
        assertNull(fixture.stored(2), "the failed write's own change was undone");
        assertEquals("value-3", fixture.stored(3));
        assertEquals(2, queue.transactionsCommitted(), "the held write, then the three in one");
        assertEquals(3, queue.operationsCommitted());
    }

    @Test
    void theNoOperationControlDiscardsOnlyItsOwnChanges() {
        WriteQueue queue = fixture.queue(256);
        CountDownLatch release = hold(queue);
        Op first = putting(queue, 1);
        AtomicInteger actions = new AtomicInteger();
        Op noop = new Op(new OpaqueControl(NoOperation.OID));
        queue.submit(noop, txn -> {
            txn.onCommit(actions::incrementAndGet);
            return put(noop, 2).apply(txn);
        });
        Op last = putting(queue, 3);
        release.countDown();

        assertEquals(ResultCodeEnum.SUCCESS, first.code());
        assertEquals(WireResultCode.NO_OPERATION, WireResultCode.seen(noop.result()));
        assertEquals(ResultCodeEnum.SUCCESS, last.code());
        assertNull(fixture.stored(2));
        assertEquals("value-1", fixture.stored(1));
        assertEquals("value-3", fixture.stored(3));
        assertEquals(0, actions.get(), "nothing of a discarded write runs after the commit");
        assertEquals(3, queue.operationsCommitted());
    }

    @Test
    void aWritesHooksRunOnlyOnceTheSharedTransactionCommitted() {
        WriteQueue queue = fixture.queue(256);
        List<String> events = Collections.synchronizedList(new ArrayList<>());
        Object owner = new Object();
        CountDownLatch release = hold(queue);
        Op first = new Op();
        Op failing = new Op();
        Op last = new Op();
        queue.afterCommit(request -> events.add("told of " + request.getMessageId()));
        queue.submit(first, txn -> {
            txn.<Runnable>beforeCommit(owner, () -> () -> txn.putEntry(11, value(11)));
            return put(first, 1).apply(txn);
        });
        queue.submit(failing, txn -> {
            txn.<Runnable>beforeCommit(owner, () -> () -> events.add("failing before commit"));
            txn.onCommit(() -> events.add("failing committed"));
            throw new ResultCodeException(ResultCodeEnum.CONSTRAINT_VIOLATION, "refused");
        });
        queue.submit(last, txn -> {
            // The same owner as the first write's: each write gathers its own, run at its own commit.
            txn.<Runnable>beforeCommit(owner, () -> () -> txn.putEntry(13, value(13)));
            // Its own record is visible to another transaction only once the shared one committed.
            txn.onCommit(() -> events.add("last saw " + fixture.stored(3) + " and " + fixture.stored(1) + ", answered "
                    + first.answer.isDone() + " " + last.answer.isDone()));
            return put(last, 3).apply(txn);
        });
        release.countDown();

        assertEquals(ResultCodeEnum.SUCCESS, last.code());
        assertEquals(ResultCodeEnum.SUCCESS, first.code());
        assertEquals(ResultCodeEnum.CONSTRAINT_VIOLATION, failing.code());
        assertEquals("value-11", fixture.stored(11));
        assertEquals("value-13", fixture.stored(13));
        assertEquals(
                List.of(
                        "last saw value-3 and value-1, answered false false",
                        "told of " + first.request.getMessageId(),
                        "told of " + last.request.getMessageId()),
                events);
        assertEquals(2, queue.transactionsCommitted(), "the held write, then the three in one");
    }

    @Test
    void aWriteTheServerReactsToEndsItsBatchSoTheNextSeesTheReaction() {
        WriteQueue queue = fixture.queue(256);
        CountDownLatch release = hold(queue);
        AtomicInteger reactions = new AtomicInteger();
        Op reacted = new Op();
        queue.submit(reacted, txn -> {
            txn.onCommit(reactions::incrementAndGet);
            return put(reacted, 1).apply(txn);
        });
        List<Integer> seen = Collections.synchronizedList(new ArrayList<>());
        Op next = new Op();
        queue.submit(next, txn -> {
            seen.add(reactions.get());
            return put(next, 2).apply(txn);
        });
        Op last = putting(queue, 3);
        release.countDown();

        assertEquals(ResultCodeEnum.SUCCESS, last.code());
        assertEquals(List.of(1), seen, "the next write ran after the first one's reaction");
        // The held write; the first alone; the next two together.
        assertEquals(3, queue.transactionsCommitted());
        assertEquals(4, queue.operationsCommitted());
    }

    @Test
    void noticesOfPersistentSearchesDoNotEndABatchAndRunInOrderOnlyAfterItsCommit() {
        WriteQueue queue = fixture.queue(256);
        CountDownLatch release = hold(queue);
        List<String> events = Collections.synchronizedList(new ArrayList<>());
        Op first = new Op();
        queue.submit(first, txn -> {
            txn.noticeOnCommit(() -> events.add("notice 1, stored " + fixture.stored(2)));
            return put(first, 1).apply(txn);
        });
        Op second = new Op();
        queue.submit(second, txn -> {
            events.add("second ran");
            txn.noticeOnCommit(() -> events.add("notice 2"));
            return put(second, 2).apply(txn);
        });
        release.countDown();

        assertEquals(ResultCodeEnum.SUCCESS, second.code());
        assertEquals(List.of("second ran", "notice 1, stored value-2", "notice 2"), events);
        assertEquals(2, queue.transactionsCommitted(), "the held write, then both noticed writes in one");
        assertEquals(3, queue.operationsCommitted());
    }

    @Test
    void aSharedCommitThatFailsRunsEachWriteAgainInATransactionOfItsOwn() {
        AtomicBoolean refused = new AtomicBoolean();
        WriteQueue queue = queue(txn -> {
            // The first commit holding both writes: the shared one (later ones hold the first's record committed).
            if (txn.entry(1) != null && txn.entry(2) != null && refused.compareAndSet(false, true)) {
                throw new StoreException("simulated: the disk went away during the commit");
            }
            txn.commit();
        });
        CountDownLatch release = hold(queue);
        AtomicInteger runs = new AtomicInteger();
        AtomicInteger actions = new AtomicInteger();
        Op first = putting(queue, 1);
        Op second = new Op();
        queue.submit(second, txn -> {
            runs.incrementAndGet();
            txn.onCommit(actions::incrementAndGet);
            return put(second, 2).apply(txn);
        });
        release.countDown();

        assertEquals(ResultCodeEnum.SUCCESS, first.code());
        assertEquals(ResultCodeEnum.SUCCESS, second.code());
        assertTrue(refused.get());
        assertEquals(2, runs.get(), "once in the shared transaction, once alone");
        assertEquals(1, actions.get(), "only the committed run's action ran");
        assertEquals("value-1", fixture.stored(1));
        assertEquals("value-2", fixture.stored(2));
        assertEquals(3, queue.transactionsCommitted(), "the held write, then each alone");
    }

    @Test
    void whenEveryCommitOfAWriteFailsNoAnswerClaimsSuccessAndItsBatchMateStillCommits() {
        WriteQueue queue = queue(txn -> {
            if (txn.entry(1) != null || txn.entry(2) != null) {
                throw new StoreException("simulated: no space left");
            }
            txn.commit();
        });
        CountDownLatch release = hold(queue);
        AtomicInteger runs = new AtomicInteger();
        Op first = new Op();
        queue.submit(first, txn -> {
            ResultResponse response = put(first, 1).apply(txn);
            if (runs.getAndIncrement() == 0) {
                // What the first run left on the response must not reach the client with a later answer.
                response.addControl(new OpaqueControl("1.3.6.1.4.1.4203.1.9.1.1"));
            }
            return response;
        });
        Op second = putting(queue, 2);
        Op innocent = putting(queue, 3);
        release.countDown();

        assertEquals(ResultCodeEnum.OTHER, first.code());
        assertTrue(
                first.result().getControls().isEmpty(),
                first.result().getControls().toString());
        assertEquals(ResultCodeEnum.OTHER, second.code());
        assertEquals(ResultCodeEnum.SUCCESS, innocent.code());
        assertNull(fixture.stored(1));
        assertNull(fixture.stored(2));
        assertEquals("value-3", fixture.stored(3));
        assertEquals(2, runs.get());
        assertEquals(1, first.answers.get());
        assertEquals(2, queue.operationsCommitted(), "the held write and the innocent one");
    }

    @Test
    void aWriteFailingForAnotherReasonThanItsChecksRunsAgainFirstInTheNextTransaction() {
        WriteQueue queue = fixture.queue(256);
        CountDownLatch release = hold(queue);
        Op first = putting(queue, 1);
        AtomicInteger runs = new AtomicInteger();
        Op flaky = new Op();
        queue.submit(flaky, txn -> {
            if (runs.getAndIncrement() == 0) {
                // As a store failure that sharing could have caused (a transaction grown too large).
                throw new IllegalStateException("simulated: failed beside its batch-mates");
            }
            return put(flaky, 2).apply(txn);
        });
        Op last = putting(queue, 3);
        release.countDown();

        assertEquals(ResultCodeEnum.SUCCESS, first.code());
        assertEquals(ResultCodeEnum.SUCCESS, flaky.code());
        assertEquals(ResultCodeEnum.SUCCESS, last.code());
        assertEquals(2, runs.get());
        assertEquals("value-2", fixture.stored(2));
        // The held write; the first alone; the flaky one again with the last.
        assertEquals(3, queue.transactionsCommitted());
        assertEquals(4, queue.operationsCommitted());
    }

    @Test
    void aWriteThatDoesNotFitBesideItsBatchMatesIsRunAgainAloneBeforeItFails() {
        try (WriterFixture small = new WriterFixture(dir.resolve("small"), 1L << 20)) {
            WriteQueue queue = small.queue(256);
            CountDownLatch release = hold(queue);
            Op first = putting(queue, 1);
            AtomicInteger runs = new AtomicInteger();
            Op huge = new Op();
            queue.submit(huge, txn -> {
                runs.incrementAndGet();
                txn.putEntry(2, new byte[2 << 20]); // twice the map: never fits
                return huge.success();
            });
            Op last = putting(queue, 3);
            release.countDown();

            assertEquals(ResultCodeEnum.SUCCESS, first.code());
            assertEquals(ResultCodeEnum.UNWILLING_TO_PERFORM, huge.code());
            assertEquals(
                    "store is full: raise storage.map-size",
                    huge.result().getLdapResult().getDiagnosticMessage());
            assertEquals(ResultCodeEnum.SUCCESS, last.code());
            assertEquals(2, runs.get(), "beside the first write, then alone");
            assertEquals("value-1", small.stored(1));
            assertNull(small.stored(2));
            assertEquals("value-3", small.stored(3));
        }
    }

    @Test
    void aFailingInternalWriteDiscardsOnlyItsOwnChanges() {
        WriteQueue queue = fixture.queue(256);
        CountDownLatch release = hold(queue);
        Op first = putting(queue, 1);
        queue.submitInternal("a record the test breaks", txn -> {
            txn.putEntry(2, value(2));
            throw new ResultCodeException(ResultCodeEnum.OTHER, "simulated");
        });
        Op last = putting(queue, 3);
        release.countDown();

        assertEquals(ResultCodeEnum.SUCCESS, first.code());
        assertEquals(ResultCodeEnum.SUCCESS, last.code());
        assertNull(fixture.stored(2));
        assertEquals("value-3", fixture.stored(3));
        assertEquals(2, queue.transactionsCommitted());
    }
}
