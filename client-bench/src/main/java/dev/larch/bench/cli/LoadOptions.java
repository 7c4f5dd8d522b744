package dev.larch.bench.cli;

import java.nio.file.Path;
import java.util.Locale;

import dev.larch.bench.run.ConnectionSweep;
import dev.larch.bench.run.LoadModel;
import dev.larch.bench.run.Tls;
import picocli.CommandLine.Option;

/**
 * The options that say when and how requests are sent: fixed rate, outstanding requests, TLS and
 * the connection sweep. A picocli mixin of {@code bench}; {@link #check} validates them together.
 */
final class LoadOptions {
    @Option(
            names = "--rate",
            description = "Fixed rate: operations per second across all threads, each request on a schedule; "
                    + "latency counts from the scheduled start (default: closed loop).")
    Double rate;

    @Option(
            names = "--outstanding",
            defaultValue = "0",
            description = "Requests in flight per connection, asynchronous mode (default 0: synchronous).")
    int outstanding;

    @Option(
            names = "--driver-threads",
            description = "Threads sending on asynchronous connections (default: the number of cores).")
    Integer driverThreads;

    @Option(names = "--ldaps", description = "Connect with LDAPS (TLS from the first byte).")
    boolean ldaps;

    @Option(names = "--starttls", description = "Upgrade each connection with StartTLS before the bind.")
    boolean starttls;

    @Option(names = "--trust-store", description = "Certificates to trust for --ldaps/--starttls: PEM, JKS or PKCS#12.")
    Path trustStore;

    @Option(names = "--trust-store-password", description = "Password of --trust-store, if it needs one.")
    String trustStorePassword;

    @Option(names = "--trust-all", description = "Trust any server certificate (no check; prints a warning).")
    boolean trustAll;

    @Option(
            names = "--find-max-connections",
            description = "Raise the connection count, each connection at --connection-rate, until p99, "
                    + "errors or the achieved rate break a bound; report the maximum sustained.")
    boolean findMaxConnections;

    @Option(names = "--connection-rate", description = "Operations per second per connection (--find-max-connections).")
    Double connectionRate;

    @Option(
            names = "--max-connections-start",
            defaultValue = "10",
            description = "Connections in the first step (default ${DEFAULT-VALUE}).")
    int maxConnectionsStart;

    @Option(
            names = "--max-connections-step",
            defaultValue = "10",
            description = "Connections added per step (default ${DEFAULT-VALUE}).")
    int maxConnectionsStep;

    @Option(
            names = "--max-connections-limit",
            defaultValue = "1000",
            description = "Most connections tried (default ${DEFAULT-VALUE}).")
    int maxConnectionsLimit;

    @Option(
            names = "--max-p99-ms",
            defaultValue = "100",
            description = "A step whose p99 passes this many ms fails (default ${DEFAULT-VALUE}).")
    double maxP99Ms;

    @Option(
            names = "--max-error-percent",
            defaultValue = "1",
            description = "A step whose errors plus wrong answers pass this percent fails (default ${DEFAULT-VALUE}).")
    double maxErrorPercent;

    @Option(
            names = "--max-rate-shortfall",
            defaultValue = "2",
            description = "A step achieving this percent less than offered fails (default ${DEFAULT-VALUE}).")
    double maxRateShortfall;

    /** Checks the options together; {@code ramp} is whether {@code --ramp} was given. */
    void check(boolean ramp) {
        if (rate != null && !(rate > 0)) {
            throw new BadInputException("--rate must be > 0 operations per second");
        }
        if (outstanding < 0) {
            throw new BadInputException("--outstanding must be >= 0");
        }
        if (driverThreads != null && driverThreads < 1) {
            throw new BadInputException("--driver-threads must be at least 1");
        }
        if (driverThreads != null && outstanding == 0 && !findMaxConnections) {
            throw new BadInputException(
                    "--driver-threads needs --outstanding or --find-max-connections (synchronous connections"
                            + " have one thread each)");
        }
        if (ldaps && starttls) {
            throw new BadInputException("--ldaps and --starttls exclude each other");
        }
        boolean tls = ldaps || starttls;
        if (!tls && (trustStore != null || trustAll)) {
            throw new BadInputException("--trust-store and --trust-all need --ldaps or --starttls");
        }
        if (tls && trustStore == null && !trustAll) {
            throw new BadInputException(
                    "--ldaps/--starttls need --trust-store FILE (the server's CA certificate) or --trust-all");
        }
        if (trustStore != null && trustAll) {
            throw new BadInputException("--trust-store and --trust-all exclude each other");
        }
        if (trustStorePassword != null && trustStore == null) {
            throw new BadInputException("--trust-store-password needs --trust-store");
        }
        if (!findMaxConnections) {
            if (connectionRate != null) {
                throw new BadInputException("--connection-rate needs --find-max-connections");
            }
            return;
        }
        if (ramp || rate != null) {
            throw new BadInputException(
                    "--find-max-connections excludes --ramp and --rate (it sets the rate per step)");
        }
        if (connectionRate == null || !(connectionRate > 0)) {
            throw new BadInputException("--find-max-connections needs --connection-rate > 0 (ops/s per connection)");
        }
        if (maxConnectionsStart < 1 || maxConnectionsStep < 1 || maxConnectionsLimit < maxConnectionsStart) {
            throw new BadInputException(
                    "--max-connections-start and --max-connections-step must be >= 1, --max-connections-limit >= start");
        }
        if (!(maxP99Ms > 0) || maxErrorPercent < 0 || maxRateShortfall < 0) {
            throw new BadInputException("--max-p99-ms must be > 0; --max-error-percent and --max-rate-shortfall >= 0");
        }
    }

    /** The TLS setup; a trust store that cannot be read is bad input. */
    Tls tls() {
        Tls.Mode mode = ldaps ? Tls.Mode.LDAPS : starttls ? Tls.Mode.STARTTLS : Tls.Mode.NONE;
        try {
            return Tls.of(mode, trustStore, trustStorePassword, trustAll);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(e.getMessage(), e);
        }
    }

    /** The load model of an ordinary run (the sweep sets the rate of each step itself). */
    LoadModel model() {
        int drivers =
                driverThreads != null ? driverThreads : Runtime.getRuntime().availableProcessors();
        // The sweep multiplexes many connections over few threads, which needs asynchronous mode.
        int inFlight = findMaxConnections ? Math.max(1, outstanding) : outstanding;
        return new LoadModel(rate == null ? 0 : rate, inFlight, drivers);
    }

    ConnectionSweep.Plan sweepPlan() {
        return new ConnectionSweep.Plan(
                maxConnectionsStart,
                maxConnectionsStep,
                maxConnectionsLimit,
                connectionRate,
                maxP99Ms,
                maxErrorPercent,
                maxRateShortfall);
    }

    /** result.json's {@code config.loadModel}: compare refuses results whose load models differ. */
    String modelName() {
        return findMaxConnections ? "find-max-connections" : model().label();
    }

    /** result.json's {@code config.rate}: the total scheduled rate, or null when there is none. */
    Double rateOrNull() {
        return rate;
    }

    /** result.json's {@code config.outstanding}, or null on synchronous connections. */
    Integer outstandingOrNull() {
        LoadModel m = model();
        return m.asynchronous() ? m.outstanding() : null;
    }

    /** result.json's {@code config.driverThreads}, or null on synchronous connections. */
    Integer driverThreadsOrNull() {
        LoadModel m = model();
        return m.asynchronous() ? m.driverThreads() : null;
    }

    /** result.json's {@code config.connectionRate}, or null outside a connection sweep. */
    Double connectionRateOrNull() {
        return findMaxConnections ? connectionRate : null;
    }

    /** The load model in words, for the start-up line. */
    String describe() {
        LoadModel m = model();
        return findMaxConnections
                ? String.format(
                        Locale.ROOT,
                        "find-max-connections at %.1f ops/s per connection, %d outstanding per connection on %d"
                                + " driver threads",
                        connectionRate,
                        m.outstanding(),
                        m.driverThreads())
                : m.describe();
    }

    /** How to read latency under this load model, for result.json's notes. */
    String note() {
        if (findMaxConnections || rate != null) {
            return "Fixed rate: every request has an intended start on a schedule; latency counts from it "
                    + "(coordinated omission corrected), runs[].pacing.serviceLatencyMs from the real send. "
                    + "Late starts (more than 1 ms behind) are sent late, never skipped.";
        }
        return outstanding > 0
                ? "Closed loop with " + outstanding + " requests in flight per asynchronous connection; latency "
                        + "counts from each request's send."
                : "Closed loop: each thread sends its next request when the previous one is answered; latency "
                        + "counts from the send, so a stall delays the requests behind it without showing in "
                        + "their latency (coordinated omission).";
    }
}
