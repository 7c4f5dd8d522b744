package dev.larch.bench.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Live counters of one operation, written by every worker and drained once per interval.
 *
 * <p>Successes (including partial ones) record their latency in an HdrHistogram {@link Recorder},
 * which lets many writers record without locks while the interval thread swaps histograms. Wrong
 * answers and errors are only counted: they are not successes and their latency is not the
 * server's answer to the question asked. Thread-safe.
 */
public final class OpMetrics {
    /** Latencies are recorded in nanoseconds with three significant digits. */
    static final int SIGNIFICANT_DIGITS = 3;
    /** Wrong answers kept as examples, per interval here and per run in the totals. */
    static final int EXAMPLES = 5;

    private final Recorder latency = new Recorder(SIGNIFICANT_DIGITS);
    private final LongAdder entries = new LongAdder();
    private final LongAdder partial = new LongAdder();
    private final LongAdder wrong = new LongAdder();
    private final Queue<String> wrongExamples = new ConcurrentLinkedQueue<>();
    private final AtomicInteger examplesTaken = new AtomicInteger();
    private final Map<Integer, LongAdder> errors = new ConcurrentHashMap<>();
    // One answer's latency and its entries must land in the same interval: without this, a drain
    // between the two moved the entries into the next interval, and the run's last ones were lost
    // (a one-entry mix once reported 0.9996 entries per search). Recorders share the read side.
    private final ReadWriteLock phase = new ReentrantReadWriteLock();

    /** A correct answer with {@code entryCount} entries; {@code partialAnswer} after sizeLimitExceeded. */
    public void success(long nanos, int entryCount, boolean partialAnswer) {
        phase.readLock().lock();
        try {
            latency.recordValue(Math.max(1, nanos));
            entries.add(entryCount);
            if (partialAnswer) {
                partial.increment();
            }
        } finally {
            phase.readLock().unlock();
        }
    }

    /** Records a judged answer that took {@code nanos}. */
    public void record(Answer answer, long nanos) {
        switch (answer.verdict()) {
            case SUCCESS -> success(nanos, answer.entries(), false);
            case PARTIAL -> success(nanos, answer.entries(), true);
            case WRONG -> wrongAnswer(answer.problem());
            case ERROR -> error(answer.resultCode());
        }
    }

    /**
     * A wrong answer (e.g. an exact lookup that returned somebody else); the first {@link
     * #EXAMPLES} problems of each interval are kept as examples.
     *
     * @param problem what was wrong, or null
     */
    public void wrongAnswer(String problem) {
        phase.readLock().lock();
        try {
            wrong.increment();
            if (problem != null && examplesTaken.getAndIncrement() < EXAMPLES) {
                wrongExamples.add(problem);
            }
        } finally {
            phase.readLock().unlock();
        }
    }

    /** A failed request, by LDAP result code (client-side codes such as 91 connectError included). */
    public void error(int resultCode) {
        errors.computeIfAbsent(resultCode, k -> new LongAdder()).increment();
    }

    /**
     * Takes what was recorded since the last call and resets it. Called by one thread only.
     *
     * @param recycle a histogram from a previous snapshot to reuse, or null
     */
    public Snapshot drain(Histogram recycle) {
        phase.writeLock().lock();
        try {
            return drainLocked(recycle);
        } finally {
            phase.writeLock().unlock();
        }
    }

    private Snapshot drainLocked(Histogram recycle) {
        Histogram h = latency.getIntervalHistogram(recycle);
        Map<Integer, Long> errorCounts = new TreeMap<>();
        errors.forEach((code, n) -> {
            long c = n.sumThenReset();
            if (c > 0) {
                errorCounts.put(code, c);
            }
        });
        List<String> examples = new ArrayList<>();
        for (String e = wrongExamples.poll(); e != null; e = wrongExamples.poll()) {
            examples.add(e);
        }
        examplesTaken.set(0);
        return new Snapshot(
                h, entries.sumThenReset(), partial.sumThenReset(), wrong.sumThenReset(), errorCounts, examples);
    }

    /**
     * One interval of one operation.
     *
     * @param latency nanoseconds of successful requests
     * @param entries entries returned by successful requests
     * @param partial successes that ended in sizeLimitExceeded
     * @param wrong wrong answers
     * @param errors failures by result code
     * @param wrongExamples the first few wrong answers' problems
     */
    public record Snapshot(
            Histogram latency,
            long entries,
            long partial,
            long wrong,
            Map<Integer, Long> errors,
            List<String> wrongExamples) {
        public long successes() {
            return latency.getTotalCount();
        }

        public long errorCount() {
            return errors.values().stream().mapToLong(Long::longValue).sum();
        }
    }
}
