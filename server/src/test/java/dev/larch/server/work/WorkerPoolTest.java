package dev.larch.server.work;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WorkerPoolTest {
    @Test
    void admitsThreadsPlusQueueTasksAndRefusesTheNext() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch ran = new CountDownLatch(3);
        try (WorkerPool pool = new WorkerPool("test-worker", 2, 1)) {
            Runnable blocked = () -> {
                awaitQuietly(release);
                ran.countDown();
            };
            assertTrue(pool.trySubmit(blocked));
            assertTrue(pool.trySubmit(blocked));
            assertTrue(pool.trySubmit(blocked));
            assertFalse(pool.trySubmit(() -> {}), "a fourth task exceeds 2 threads + 1 queued");
            release.countDown();
            assertTrue(ran.await(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void aFinishedTaskFreesItsPlace() throws Exception {
        try (WorkerPool pool = new WorkerPool("test-worker", 1, 0)) {
            for (int i = 0; i < 5; i++) {
                CountDownLatch done = new CountDownLatch(1);
                submitWhenFree(pool, done::countDown);
                assertTrue(done.await(10, TimeUnit.SECONDS), "task " + i);
            }
        }
    }

    /** What a task returns to run after it (its answer) runs once its place is free: a next task fits. */
    @Test
    void theAnswerRunsAfterThePlaceIsFree() throws Exception {
        try (WorkerPool pool = new WorkerPool("test-worker", 1, 0)) {
            CountDownLatch answered = new CountDownLatch(1);
            AtomicInteger admittedFromAnswer = new AtomicInteger(-1);
            assertTrue(pool.trySubmitThen(() -> () -> {
                admittedFromAnswer.set(pool.trySubmit(() -> {}) ? 1 : 0);
                answered.countDown();
            }));
            assertTrue(answered.await(10, TimeUnit.SECONDS));
            assertEquals(1, admittedFromAnswer.get(), "the one place was still held when the answer ran");
        }
    }

    @Test
    void aFailingTaskDoesNotCostAPlaceOrAWorker() throws Exception {
        try (WorkerPool pool = new WorkerPool("test-worker", 1, 0)) {
            assertTrue(pool.trySubmit(() -> {
                throw new IllegalStateException("expected by the test");
            }));
            CountDownLatch done = new CountDownLatch(1);
            submitWhenFree(pool, done::countDown);
            assertTrue(done.await(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void aClosedPoolRefusesAndAdmittedTasksFinish() throws Exception {
        AtomicInteger finished = new AtomicInteger();
        WorkerPool pool = new WorkerPool("test-worker", 1, 4);
        for (int i = 0; i < 5; i++) {
            assertTrue(pool.trySubmit(finished::incrementAndGet));
        }
        pool.close();
        assertEquals(5, finished.get());
        assertFalse(pool.trySubmit(finished::incrementAndGet));
    }

    @Test
    void rejectsNonsenseSizes() {
        assertThrows(IllegalArgumentException.class, () -> new WorkerPool("w", 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new WorkerPool("w", 1, -1));
    }

    /**
     * The place is given back just after a task returns, so the next offer may race with that; retry
     * until admitted. A place that is never given back fails the deadline.
     */
    private static void submitWhenFree(WorkerPool pool, Runnable task) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!pool.trySubmit(task)) {
            assertTrue(System.nanoTime() < deadline, "the pool never freed its place");
            Thread.onSpinWait();
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
