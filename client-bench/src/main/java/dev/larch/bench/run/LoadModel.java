package dev.larch.bench.run;

import java.util.Locale;

/**
 * When requests are sent: how fast, and how many may wait for their answers at once.
 *
 * <p>Closed loop ({@code rate 0, outstanding 0}) sends a thread's next request when the previous
 * one is answered, on a synchronous connection. A positive rate gives every request an intended
 * start time on a fixed schedule and measures latency from it. A positive {@code outstanding} puts
 * connections in asynchronous mode with that many requests in flight on each, driven by
 * {@code driverThreads} threads rather than one thread per connection.
 *
 * @param rateOpsPerSecond operations per second across all connections, or 0 for closed loop
 * @param outstanding requests in flight per connection (asynchronous mode), or 0 for synchronous
 * @param driverThreads threads that send on the asynchronous connections (ignored when synchronous)
 */
public record LoadModel(double rateOpsPerSecond, int outstanding, int driverThreads) {
    /** Today's default: one synchronous connection per thread, no pacing. */
    public static final LoadModel CLOSED = new LoadModel(0, 0, 1);

    public LoadModel {
        if (rateOpsPerSecond < 0 || outstanding < 0 || driverThreads < 1) {
            throw new IllegalArgumentException("rate and outstanding must be >= 0, driver threads >= 1: "
                    + rateOpsPerSecond + ", " + outstanding + ", " + driverThreads);
        }
    }

    /** Whether requests follow a schedule of intended start times. */
    public boolean paced() {
        return rateOpsPerSecond > 0;
    }

    /** Whether connections run in asynchronous mode with requests in flight. */
    public boolean asynchronous() {
        return outstanding > 0;
    }

    /** The same model at another total rate (a step of the connection sweep). */
    public LoadModel withRate(double opsPerSecond) {
        return new LoadModel(opsPerSecond, outstanding, driverThreads);
    }

    /** "closed", "rate", "outstanding" or "rate+outstanding", as result.json records it. */
    public String label() {
        if (paced() && asynchronous()) {
            return "rate+outstanding";
        }
        return paced() ? "rate" : asynchronous() ? "outstanding" : "closed";
    }

    /** A readable description, e.g. "fixed rate 500.0 ops/s, 4 outstanding per connection". */
    public String describe() {
        StringBuilder sb = new StringBuilder(
                paced() ? String.format(Locale.ROOT, "fixed rate %.1f ops/s", rateOpsPerSecond) : "closed loop");
        if (asynchronous()) {
            sb.append(String.format(
                    Locale.ROOT, ", %d outstanding per connection on %d driver threads", outstanding, driverThreads));
        }
        return sb.toString();
    }
}
