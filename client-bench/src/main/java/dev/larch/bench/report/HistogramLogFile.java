package dev.larch.bench.report;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * Writes histograms.hlog: every interval's latency histograms (nanoseconds) in HdrHistogram's
 * interval log format, tagged by {@link HistogramTag}, as the intervals complete, so a crashed run
 * still leaves the intervals it finished. Warm-up intervals are written too, tagged
 * {@code phase=warm-up}; {@code bench merge} and the summaries use {@code phase=measure} only.
 *
 * <p>Timestamps are absolute (base time 0): seconds since the epoch with millisecond precision, so
 * the logs of several load generators line up by wall-clock time. The epoch time of an interval is
 * derived from {@link System#nanoTime()} through one offset taken when the file is created, so
 * intervals stay evenly spaced even if the wall clock is stepped during a run.
 *
 * <p>Each interval is written as one {@code all} line, one {@code connect} line and one line per
 * operation, in that order. Called from the run engine's timing thread; not meant for concurrent use.
 */
public final class HistogramLogFile implements IntervalHistograms, Closeable {
    /** The file name beside result.json. */
    public static final String NAME = "histograms.hlog";

    private final PrintStream stream;
    private final HistogramLogWriter writer;
    private final double epochMillisAtNanoZero;

    private HistogramLogFile(PrintStream stream, long nowMillis, long nowNanos) {
        this.stream = stream;
        this.writer = new HistogramLogWriter(stream);
        this.epochMillisAtNanoZero = nowMillis - nowNanos / 1e6;
    }

    /** Creates (or replaces) {@code file} and writes the log's header. */
    public static HistogramLogFile create(Path file) throws IOException {
        PrintStream stream = new PrintStream(
                new BufferedOutputStream(Files.newOutputStream(file)), false, StandardCharsets.US_ASCII);
        HistogramLogFile log = new HistogramLogFile(stream, System.currentTimeMillis(), System.nanoTime());
        log.writer.outputLogFormatVersion();
        log.writer.outputComment("larch client-bench: latency in nanoseconds of successful requests per interval;"
                + " tags run=R;phase=warm-up|measure;all|connect|op=NAME (URL-encoded)");
        log.writer.outputStartTime(System.currentTimeMillis());
        log.writer.setBaseTime(0);
        log.writer.outputBaseTime(0);
        log.writer.outputLegend();
        log.flush();
        return log;
    }

    @Override
    public void interval(
            int run,
            String phase,
            long startNanos,
            long endNanos,
            Map<String, Histogram> operations,
            Histogram all,
            Histogram connections) {
        write(run, phase, epochSeconds(startNanos), epochSeconds(endNanos), operations, all, connections);
    }

    /** Writes an interval whose wall-clock times are already known, as in a merged log. */
    public void write(HistogramLogContent.Interval i) {
        double start = i.startEpochMillis() / 1000.0;
        write(i.run(), i.phase(), start, start + i.seconds(), i.operations(), i.all(), i.connections());
    }

    private void write(
            int run,
            String phase,
            double start,
            double end,
            Map<String, Histogram> operations,
            Histogram all,
            Histogram connections) {
        write(start, end, all, HistogramTag.all(run, phase));
        write(start, end, connections, HistogramTag.connect(run, phase));
        operations.forEach((name, h) -> write(start, end, h, HistogramTag.operation(run, phase, name)));
        flush();
    }

    private void write(double start, double end, Histogram h, HistogramTag tag) {
        Histogram copy = h.copy(); // the tag is a field of the histogram; leave the caller's alone
        copy.setTag(tag.format());
        writer.outputIntervalHistogram(start, end, copy);
    }

    /** Seconds since the epoch, to the millisecond, of a {@link System#nanoTime()} reading. */
    double epochSeconds(long nanos) {
        return Math.round(epochMillisAtNanoZero + nanos / 1e6) / 1000.0;
    }

    private void flush() {
        stream.flush();
        if (stream.checkError()) {
            throw new UncheckedIOException(new IOException("writing " + NAME + " failed"));
        }
    }

    @Override
    public void close() {
        writer.close();
    }
}
