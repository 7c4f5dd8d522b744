package dev.larch.bench.run;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import dev.larch.bench.gen.SplitMix64;
import dev.larch.bench.mix.OperationSpec;
import dev.larch.bench.report.BenchResult;
import dev.larch.bench.report.IntervalHistograms;
import dev.larch.bench.report.RunHistograms;
import dev.larch.bench.report.Stats;
import org.HdrHistogram.Histogram;

/**
 * Runs one warm-up plus one measurement with a given number of clients and threads.
 *
 * <p>The calling thread keeps time: at each interval boundary it drains every operation's
 * metrics, prints one line, and—only in the measurement phase—adds the interval to the run's
 * totals. A request counts in the interval in which it completes. Not thread-safe; one run at a time.
 */
public final class RunEngine {
    static final String WARM_UP = "warm-up";
    static final String MEASURE = "measure";

    private final RunSettings settings;
    private final Consumer<String> out;
    private IntervalHistograms histograms = IntervalHistograms.NONE;

    public RunEngine(RunSettings settings, Consumer<String> out) {
        this.settings = settings;
        this.out = out;
    }

    /** Where every interval's histograms go (histograms.hlog); none by default. */
    public void histogramsTo(IntervalHistograms sink) {
        this.histograms = sink;
    }

    /** Interval ends in seconds from the start: warm-up ends first, then measurement ends. */
    static List<Double> boundaries(double warmup, double duration, double interval) {
        List<Double> ends = new ArrayList<>();
        for (double t = interval; t < warmup - 1e-9; t += interval) {
            ends.add(t);
        }
        if (warmup > 0) {
            ends.add(warmup);
        }
        for (double t = warmup + interval; t < warmup + duration - 1e-9; t += interval) {
            ends.add(t);
        }
        ends.add(warmup + duration);
        return ends;
    }

    public BenchResult.Run run(int runNumber, int clients, int threads) {
        List<OperationSpec> ops = settings.mix().operations();
        List<OpMetrics> metrics = new ArrayList<>();
        ops.forEach(o -> metrics.add(new OpMetrics()));
        OpMetrics connect = new OpMetrics();
        PacingMetrics pacing = new PacingMetrics();
        StartGate start = new StartGate();
        StopFlag flag = new StopFlag();
        List<RequestFactory> scripts = new ArrayList<>();
        List<Thread> threadsList =
                startSenders(runNumber, clients, threads, metrics, connect, pacing, start, flag, scripts);

        List<OpTotals> totals = new ArrayList<>();
        ops.forEach(o -> totals.add(new OpTotals()));
        OpTotals connectTotals = new OpTotals();
        List<BenchResult.Interval> intervals = new ArrayList<>();
        ServerProcess server = settings.server();
        long measureStartCpu = 0;
        long measureStartServerCpu = 0;
        long measureStartNanos = 0;
        List<Long> rssSamples = new ArrayList<>();
        ResourceMonitor resources = ResourceMonitor.of(settings);
        PacingMetrics.Totals pacingTotals = new PacingMetrics.Totals();

        long t0 = System.nanoTime();
        start.open(t0);
        long prevNanos = t0;
        long prevCpu = HarnessCpu.processCpuNanos();
        long prevServerCpu = server == null ? -1 : server.cpuNanos();
        double prevEnd = 0;
        if (settings.warmupSeconds() == 0) {
            measureStartCpu = prevCpu;
            measureStartServerCpu = prevServerCpu;
            measureStartNanos = t0;
            resources.measureStarts();
        }
        for (double end :
                boundaries(settings.warmupSeconds(), settings.durationSeconds(), settings.intervalSeconds())) {
            sleepUntil(t0 + (long) (end * 1e9));
            long now = System.nanoTime();
            long cpu = HarnessCpu.processCpuNanos();
            long serverCpu = server == null ? -1 : server.cpuNanos();
            long rss = server == null ? -1 : server.rssKb();
            boolean measuring = prevEnd >= settings.warmupSeconds() - 1e-9;
            double seconds = (now - prevNanos) / 1e9;

            Histogram combined = new Histogram(OpMetrics.SIGNIFICANT_DIGITS);
            Map<String, Double> perOp = new LinkedHashMap<>();
            Map<String, Histogram> opHistograms = new LinkedHashMap<>();
            long errors = 0;
            long wrong = 0;
            for (int i = 0; i < ops.size(); i++) {
                OpMetrics.Snapshot s = metrics.get(i).drain(null);
                combined.add(s.latency());
                perOp.put(ops.get(i).name(), s.successes() / seconds);
                opHistograms.put(ops.get(i).name(), s.latency());
                errors += s.errorCount();
                wrong += s.wrong();
                if (measuring) {
                    totals.get(i).add(s);
                }
            }
            OpMetrics.Snapshot cs = connect.drain(null);
            histograms.interval(
                    runNumber, measuring ? MEASURE : WARM_UP, prevNanos, now, opHistograms, combined, cs.latency());
            errors += cs.errorCount();
            PacingMetrics.Snapshot ps = pacing.drain();
            if (measuring) {
                resources.sample();
                connectTotals.add(cs);
                pacingTotals.add(ps);
                if (rss >= 0) {
                    rssSamples.add(rss);
                }
            }
            Double harnessPct = cpu < 0 || prevCpu < 0 ? null : (cpu - prevCpu) / (double) (now - prevNanos) * 100;
            Double serverPct = serverCpu < 0 || prevServerCpu < 0
                    ? null
                    : (serverCpu - prevServerCpu) / (double) (now - prevNanos) * 100;
            BenchResult.Interval interval = new BenchResult.Interval(
                    measuring ? MEASURE : WARM_UP,
                    prevEnd,
                    seconds,
                    combined.getTotalCount() / seconds,
                    Stats.latency(combined).p50(),
                    Stats.latency(combined).p99(),
                    errors,
                    wrong,
                    perOp,
                    harnessPct,
                    serverPct,
                    rss < 0 ? null : rss);
            intervals.add(interval);
            out.accept(line(runNumber, clients, threads, interval));

            if (!measuring && end >= settings.warmupSeconds() - 1e-9) {
                measureStartCpu = cpu;
                measureStartServerCpu = serverCpu;
                measureStartNanos = now;
                resources.measureStarts();
            }
            prevNanos = now;
            prevCpu = cpu;
            prevServerCpu = serverCpu;
            prevEnd = end;
        }
        long measureEndNanos = prevNanos;
        flag.set();
        joinAll(threadsList);
        RequestFactory.deleteOwnEntries(scripts, settings.target()); // adds and deletes leave the data set's size

        double measured = (measureEndNanos - measureStartNanos) / 1e9;
        List<BenchResult.Operation> operations = new ArrayList<>();
        Histogram all = new Histogram(OpMetrics.SIGNIFICANT_DIGITS);
        Map<Integer, Long> errorsByCode = new TreeMap<>();
        Map<String, Histogram> opTotals = new LinkedHashMap<>();
        long ok = 0;
        long wrong = 0;
        long partial = 0;
        for (int i = 0; i < ops.size(); i++) {
            OpTotals t = totals.get(i);
            if (ops.get(i).share() > 0) {
                operations.add(t.toOperation(ops.get(i).name(), measured));
                opTotals.put(ops.get(i).name(), t.latency());
            }
            all.add(t.latency());
            ok += t.successes();
            wrong += t.wrong();
            partial += t.partial();
            t.errors().forEach((code, n) -> errorsByCode.merge(code, n, Long::sum));
        }
        connectTotals.errors().forEach((code, n) -> errorsByCode.merge(code, n, Long::sum));
        long errorCount =
                errorsByCode.values().stream().mapToLong(Long::longValue).sum();
        BenchResult.Cpu cpu =
                cpu(measured, measureStartCpu, prevCpu, server, measureStartServerCpu, prevServerCpu, rssSamples);
        BenchResult.Pacing pacingRecord = pacingTotals.toPacing(settings.load(), measured);
        if (settings.load().paced() || settings.load().asynchronous()) {
            out.accept(pacingLine(runNumber, pacingRecord));
        }
        return new BenchResult.Run(
                runNumber,
                clients,
                threads,
                measured,
                ok,
                measured > 0 ? ok / measured : 0,
                Stats.latency(all),
                partial,
                wrong,
                errorCount,
                OpTotals.label(errorsByCode),
                operations,
                connectTotals.toOperation("connect+bind", measured),
                intervals,
                cpu,
                new RunHistograms(all, opTotals, connectTotals.latency()),
                resources.finish(ok, measured),
                pacingRecord);
    }

    /** How the sending went, so a generator-bound run is visible while it runs. */
    static String pacingLine(int run, BenchResult.Pacing p) {
        return String.format(
                Locale.ROOT,
                "run %d pacing: %s, offered %.1f ops/s, sent %.1f/s, service p50 %.3f ms p99 %.3f ms, late starts %d"
                        + " (max %.3f ms behind), max in flight per connection %d",
                run,
                p.loadModel(),
                p.offeredOpsPerSecond(),
                p.sentOpsPerSecond(),
                p.serviceLatencyMs().p50(),
                p.serviceLatencyMs().p99(),
                p.lateStarts(),
                p.missedStartMsMax(),
                p.maxInFlightPerConnection());
    }

    /**
     * The seed of one sender's script: derived from the base seed, the run number, the client and
     * the thread, so each run sends different requests and the same seed and run send the same ones.
     */
    static long scriptSeed(long seed, int runNumber, int client, int thread) {
        return SplitMix64.derive(SplitMix64.derive(SplitMix64.derive(seed, runNumber), client), thread);
    }

    /**
     * Starts the senders and waits until each is ready (asynchronous drivers connect first): one
     * synchronous worker per client thread, or the client threads' connections spread over the
     * load model's driver threads. Under a rate each connection paces rate / connections, phases
     * staggered.
     */
    private List<Thread> startSenders(
            int runNumber,
            int clients,
            int threads,
            List<OpMetrics> metrics,
            OpMetrics connect,
            PacingMetrics pacing,
            StartGate start,
            StopFlag flag,
            List<RequestFactory> scripts) {
        LoadModel load = settings.load();
        int connections = clients * threads;
        double perConnection = load.rateOpsPerSecond() / connections;
        List<Runnable> senders = new ArrayList<>();
        List<String> names = new ArrayList<>();
        int drivers = load.asynchronous() ? Math.min(connections, load.driverThreads()) : connections;
        CountDownLatch ready = new CountDownLatch(drivers);
        if (!load.asynchronous()) {
            for (int c = 0; c < clients; c++) {
                for (int t = 0; t < threads; t++) {
                    long seed = scriptSeed(settings.seed(), runNumber, c, t);
                    scripts.add(new RequestFactory(settings.mix(), settings.data(), seed, settings.target()));
                    senders.add(new Worker(
                            settings.target(),
                            settings.mix().connection(),
                            scripts.get(scripts.size() - 1),
                            metrics,
                            connect,
                            pacing,
                            start,
                            ready,
                            flag::isSet,
                            SplitMix64.derive(seed, 0x5E55),
                            perConnection,
                            c * threads + t,
                            connections));
                    names.add("bench-c" + (c + 1) + "-t" + (t + 1));
                }
            }
        } else {
            List<List<AsyncDriver.Slot>> slots = new ArrayList<>();
            for (int d = 0; d < drivers; d++) {
                slots.add(new ArrayList<>());
            }
            for (int c = 0; c < clients; c++) {
                for (int t = 0; t < threads; t++) {
                    long seed = scriptSeed(settings.seed(), runNumber, c, t);
                    RequestFactory script =
                            new RequestFactory(settings.mix(), settings.data(), seed, settings.target());
                    scripts.add(script);
                    int index = c * threads + t;
                    slots.get(index % drivers)
                            .add(new AsyncDriver.Slot(
                                    script::next, SplitMix64.derive(seed, 0x5E55), perConnection, index, connections));
                }
            }
            for (int d = 0; d < drivers; d++) {
                senders.add(new AsyncDriver(
                        settings.target(),
                        settings.mix().connection(),
                        slots.get(d),
                        metrics,
                        connect,
                        pacing,
                        start,
                        ready,
                        flag::isSet,
                        load.outstanding(),
                        settings.target().responseTimeoutMillis()));
                names.add("bench-driver-" + (d + 1));
            }
        }
        List<Thread> started = new ArrayList<>();
        for (int i = 0; i < senders.size(); i++) {
            Thread th = new Thread(senders.get(i), names.get(i));
            th.setDaemon(true);
            th.start();
            started.add(th);
        }
        try {
            ready.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return started;
    }

    private static BenchResult.Cpu cpu(
            double seconds,
            long cpuStart,
            long cpuEnd,
            ServerProcess server,
            long serverStart,
            long serverEnd,
            List<Long> rss) {
        int cores = HarnessCpu.cores();
        double harnessSeconds = cpuStart < 0 || cpuEnd < 0 ? 0 : (cpuEnd - cpuStart) / 1e9;
        double ofOneCore = seconds > 0 ? harnessSeconds / seconds * 100 : 0;
        Double serverPct = server == null || serverStart < 0 || serverEnd < 0 || seconds <= 0
                ? null
                : (serverEnd - serverStart) / 1e9 / seconds * 100;
        Long rssMax = rss.isEmpty()
                ? null
                : rss.stream().mapToLong(Long::longValue).max().getAsLong();
        Long rssMean = rss.isEmpty()
                ? null
                : (long) rss.stream().mapToLong(Long::longValue).average().getAsDouble();
        return new BenchResult.Cpu(cores, harnessSeconds, ofOneCore, ofOneCore / cores, serverPct, rssMax, rssMean);
    }

    static String line(int run, int clients, int threads, BenchResult.Interval i) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(
                Locale.ROOT,
                "run %d  %dx%d  %-8s %6.1fs  ops/s %9.1f  p50 %8.3f ms  p99 %8.3f ms  errors %d  wrong %d",
                run,
                clients,
                threads,
                i.phase().equals(WARM_UP) ? "[warm-up]" : "measure",
                i.startSeconds() + i.seconds(),
                i.opsPerSecond(),
                i.p50Ms(),
                i.p99Ms(),
                i.errors(),
                i.wrongAnswers()));
        if (i.harnessCpuPercent() != null) {
            sb.append(String.format(Locale.ROOT, "  harness cpu %5.1f%% of a core", i.harnessCpuPercent()));
        }
        if (i.serverCpuPercent() != null) {
            sb.append(String.format(
                    Locale.ROOT,
                    "  server cpu %6.1f%% of a core, rss %d MB",
                    i.serverCpuPercent(),
                    i.serverRssKb() == null ? 0 : i.serverRssKb() / 1024));
        }
        return sb.toString();
    }

    private static void sleepUntil(long deadline) {
        for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    private void joinAll(List<Thread> threads) {
        long deadline = System.nanoTime() + (settings.target().responseTimeoutMillis() + 5_000) * 1_000_000L;
        for (Thread t : threads) {
            try {
                long left = (deadline - System.nanoTime()) / 1_000_000L;
                if (left > 0) {
                    t.join(left);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Set once when the run ends; workers poll it between requests. */
    static final class StopFlag {
        private volatile boolean set;

        void set() {
            set = true;
        }

        boolean isSet() {
            return set;
        }
    }
}
