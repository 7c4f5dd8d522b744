package dev.larch.bench.report;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

/**
 * A histograms.hlog read back: the intervals {@link HistogramLogFile} wrote, each with its
 * histograms. Immutable once read.
 */
public final class HistogramLogContent {
    /**
     * One interval of one run.
     *
     * @param run run number
     * @param phase "warm-up" or "measure"
     * @param startEpochMillis the interval's start, milliseconds since the epoch
     * @param seconds the interval's length
     * @param all every operation together
     * @param connections connect + bind
     * @param operations each operation by name
     */
    public record Interval(
            int run,
            String phase,
            long startEpochMillis,
            double seconds,
            Histogram all,
            Histogram connections,
            Map<String, Histogram> operations) {}

    private final List<Interval> intervals;

    private HistogramLogContent(List<Interval> intervals) {
        this.intervals = List.copyOf(intervals);
    }

    /**
     * Reads a log written by {@link HistogramLogFile}.
     *
     * @throws IllegalArgumentException if the file is missing or not such a log
     */
    public static HistogramLogContent read(Path file) {
        List<Interval> out = new ArrayList<>();
        try (InputStream in = Files.newInputStream(file)) {
            HistogramLogReader reader = new HistogramLogReader(in);
            Building current = null;
            for (EncodableHistogram e = reader.nextIntervalHistogram(); e != null; e = reader.nextIntervalHistogram()) {
                if (!(e instanceof Histogram h)) {
                    throw new IllegalArgumentException(file + " holds a histogram of another kind");
                }
                HistogramTag tag = HistogramTag.parse(h.getTag());
                if (tag.kind() == HistogramTag.Kind.ALL) {
                    if (current != null) {
                        out.add(current.done());
                    }
                    current = new Building(tag, h);
                } else if (current == null
                        || current.tag.run() != tag.run()
                        || !current.tag.phase().equals(tag.phase())) {
                    throw new IllegalArgumentException(file + ": histogram '" + h.getTag() + "' outside its interval");
                } else {
                    current.add(tag, h);
                }
            }
            if (current != null) {
                out.add(current.done());
            }
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("histogram log not found: " + file);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage());
        } catch (RuntimeException e) {
            if (e instanceof IllegalArgumentException) {
                throw e;
            }
            throw new IllegalArgumentException(file + " is not a readable histogram log: " + e, e);
        }
        return new HistogramLogContent(out);
    }

    /** Every interval in the order written. */
    public List<Interval> intervals() {
        return intervals;
    }

    /** The intervals of one run and phase, in order. */
    public List<Interval> intervals(int run, String phase) {
        return intervals.stream()
                .filter(i -> i.run() == run && i.phase().equals(phase))
                .toList();
    }

    /**
     * The sum of one run's measured intervals.
     *
     * @throws IllegalArgumentException if the log has no measured interval of that run
     */
    public RunHistograms measured(int run) {
        List<Interval> measured = intervals(run, "measure");
        if (measured.isEmpty()) {
            throw new IllegalArgumentException("the histogram log has no measured interval of run " + run);
        }
        Map<String, List<Histogram>> byOp = new LinkedHashMap<>();
        for (Interval i : measured) {
            i.operations()
                    .forEach((name, h) ->
                            byOp.computeIfAbsent(name, k -> new ArrayList<>()).add(h));
        }
        Map<String, Histogram> ops = new LinkedHashMap<>();
        byOp.forEach((name, list) -> ops.put(name, RunHistograms.sum(list)));
        return new RunHistograms(
                RunHistograms.sum(measured.stream().map(Interval::all).toList()),
                ops,
                RunHistograms.sum(measured.stream().map(Interval::connections).toList()));
    }

    /** Collects the histograms of one interval, which begins with its {@code all} histogram. */
    private static final class Building {
        final HistogramTag tag;
        final Histogram all;
        Histogram connections = RunHistograms.empty();
        final Map<String, Histogram> operations = new LinkedHashMap<>();

        Building(HistogramTag tag, Histogram all) {
            this.tag = tag;
            this.all = all;
        }

        void add(HistogramTag t, Histogram h) {
            if (t.kind() == HistogramTag.Kind.CONNECT) {
                connections = h;
            } else {
                operations.put(t.operation(), h);
            }
        }

        Interval done() {
            return new Interval(
                    tag.run(),
                    tag.phase(),
                    all.getStartTimeStamp(),
                    (all.getEndTimeStamp() - all.getStartTimeStamp()) / 1000.0,
                    all,
                    connections,
                    Collections.unmodifiableMap(new LinkedHashMap<>(operations)));
        }
    }
}
