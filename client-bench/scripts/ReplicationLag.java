import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import com.unboundid.ldap.sdk.AsyncRequestID;
import com.unboundid.ldap.sdk.AsyncSearchResultListener;
import com.unboundid.ldap.sdk.IntermediateResponse;
import com.unboundid.ldap.sdk.IntermediateResponseListener;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchResultReference;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.controls.ContentSyncRequestControl;
import com.unboundid.ldap.sdk.controls.ContentSyncRequestMode;

/**
 * Replication lag of a provider to a slapd consumer under a modify load: run by
 * replication-yardstick.sh as a single-file program ({@code java -cp unboundid-ldapsdk.jar
 * ReplicationLag.java ...}), so it needs no build of its own.
 *
 * <p>CONNECTIONS threads, each on its own connection to the provider bound as BIND_DN, replace the
 * {@code description} of a person drawn at random from the LDIF (the harness's {@code modify} mix)
 * with a value no other modify writes ({@code lag <run> <thread> <n>}, where the run's
 * tag tells this run's values from those an earlier run left on the same provider), back to back (RATE 0) or paced to
 * RATE modifies a second in all. One more connection, to the CONSUMER, holds a refreshAndPersist
 * sync search (RFC 4533; the consumer runs syncprov for it) for {@code (description=lag*)}: its
 * refresh finds nothing, and in persist mode the consumer's syncprov sends each entry as the
 * consumer commits the change it received. The lag of a modify is the time the provider's response
 * arrived to the time its value arrived from the consumer, both on this machine's monotonic clock;
 * every modify after WARMUP seconds is a sample. It is negative when the consumer showed the change
 * before the response reached this program (the provider, or this program's thread, was scheduled
 * late under load: the provider commits, then answers); the lag from the request sent, which is
 * never negative but includes the provider's own latency, is reported beside it (OUT.from-send). A value still unseen DRAIN seconds after the load
 * stops is counted as missing. Prints one summary line and writes each lag (ms) to OUT. With CONSUMER
 * {@code -} nothing is observed: the load alone runs (a consumer that is down, a member's share of a
 * multi-provider load), and the line gives the modifies a second and no lag.
 *
 * <pre>
 * java -cp UNBOUNDID_JAR ReplicationLag.java PROVIDER_HOST:PORT BIND_DN PASSWORD CONSUMER_HOST:PORT
 *     CONSUMER_DN CONSUMER_PASSWORD DATA.ldif CONNECTIONS WARMUP DURATION RATE OUT
 * </pre>
 */
public final class ReplicationLag {
    private static final int MAX_TARGETS = 200_000;
    private static final long DRAIN_SECONDS = 60;

    /**
     * What every value this run writes starts with: a provider serves several runs in one sitting, and
     * a later consumer's refresh brings back the values an earlier run left, which must not count.
     */
    private final String tag = "lag " + Long.toString(System.currentTimeMillis(), 36) + " ";

    private final Map<String, Long> sentAt = new ConcurrentHashMap<>();
    private final Map<String, Long> responded = new ConcurrentHashMap<>();
    private final Map<String, Long> seen = new ConcurrentHashMap<>();

    public static void main(String[] args) throws Exception {
        if (args.length != 12) {
            System.err.println("usage: ReplicationLag PROVIDER_HOST:PORT BIND_DN PASSWORD CONSUMER_HOST:PORT"
                    + " CONSUMER_DN CONSUMER_PASSWORD DATA.ldif CONNECTIONS WARMUP DURATION RATE OUT");
            System.exit(2);
        }
        new ReplicationLag().run(args);
    }

    private void run(String[] a) throws Exception {
        String[] provider = a[0].split(":");
        String[] consumer = a[3].split(":");
        List<String> targets = people(Path.of(a[6]));
        int connections = Integer.parseInt(a[7]);
        long warmupNanos = TimeUnit.SECONDS.toNanos(Long.parseLong(a[8]));
        long durationNanos = TimeUnit.SECONDS.toNanos(Long.parseLong(a[9]));
        double rate = Double.parseDouble(a[10]);

        LDAPConnection listener = null;
        if (!a[3].equals("-")) {
            listener = new LDAPConnection(consumer[0], Integer.parseInt(consumer[1]), a[4], a[5]);
            CountDownLatch refreshed = listen(listener);
            if (!refreshed.await(300, TimeUnit.SECONDS)) {
                throw new IOException("the consumer's sync search did not finish its refresh within 300 s");
            }
        }

        long start = System.nanoTime();
        long measureFrom = start + warmupNanos;
        long end = measureFrom + durationNanos;
        AtomicLong sampled = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < connections; t++) {
            int id = t;
            LDAPConnection c = new LDAPConnection(provider[0], Integer.parseInt(provider[1]), a[1], a[2]);
            Thread w = new Thread(() -> modify(c, id, targets, start, measureFrom, end, rate / connections, sampled, errors));
            w.start();
            workers.add(w);
        }
        for (Thread w : workers) {
            w.join();
        }
        if (listener == null) {
            System.out.println(String.format(
                    Locale.ROOT,
                    "load: %d modifies (%.1f modifies/s), %d errors",
                    sampled.get(),
                    sampled.get() / (durationNanos / 1e9),
                    errors.get()));
            return;
        }
        long drainUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(DRAIN_SECONDS);
        while (System.nanoTime() < drainUntil && !seen.keySet().containsAll(responded.keySet())) {
            Thread.sleep(100);
        }
        listener.close();
        report(a[11], sampled.get(), errors.get(), durationNanos);
    }

    /** Starts the sync search on the consumer; the latch opens when its refresh is done. */
    private CountDownLatch listen(LDAPConnection listener) throws LDAPException {
        CountDownLatch refreshed = new CountDownLatch(1);
        AsyncSearchResultListener entries = new AsyncSearchResultListener() {
            @Override
            public void searchEntryReturned(SearchResultEntry entry) {
                long now = System.nanoTime();
                String value = entry.getAttributeValue("description");
                if (value != null && value.startsWith(tag)) {
                    seen.putIfAbsent(value, now);
                }
            }

            @Override
            public void searchReferenceReturned(SearchResultReference reference) {}

            @Override
            public void searchResultReceived(AsyncRequestID id, SearchResult result) {
                System.err.println("ReplicationLag: the consumer ended the sync search: " + result);
                refreshed.countDown();
            }
        };
        SearchRequest search = new SearchRequest(
                entries, "dc=example,dc=com", SearchScope.SUB, "(description=lag*)", "description");
        search.addControl(new ContentSyncRequestControl(true, ContentSyncRequestMode.REFRESH_AND_PERSIST, null, false));
        search.setIntermediateResponseListener((IntermediateResponseListener) r -> refreshed.countDown());
        listener.asyncSearch(search);
        return refreshed;
    }

    private void modify(
            LDAPConnection c,
            int id,
            List<String> targets,
            long start,
            long measureFrom,
            long end,
            double perThreadRate,
            AtomicLong sampled,
            AtomicLong errors) {
        SplittableRandom random = new SplittableRandom(id * 7919L + 17);
        long interval = perThreadRate > 0 ? (long) (1e9 / perThreadRate) : 0;
        long next = start + (interval > 0 ? random.nextLong(interval) : 0);
        long n = 0;
        try (c) {
            while (true) {
                long now = System.nanoTime();
                if (now >= end) {
                    return;
                }
                if (interval > 0) {
                    if (now < next) {
                        TimeUnit.NANOSECONDS.sleep(next - now);
                    }
                    next += interval;
                }
                String value = tag + id + " " + n++;
                long sent = System.nanoTime();
                try {
                    c.modify(targets.get(random.nextInt(targets.size())),
                            new Modification(ModificationType.REPLACE, "description", value));
                } catch (LDAPException e) {
                    errors.incrementAndGet();
                    continue;
                }
                long answered = System.nanoTime();
                if (sent >= measureFrom) {
                    sentAt.put(value, sent);
                    responded.put(value, answered);
                    sampled.incrementAndGet();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void report(String out, long samples, long errors, long durationNanos) throws IOException {
        List<Double> lags = new ArrayList<>();
        List<Double> fromSend = new ArrayList<>();
        long missing = 0;
        for (Map.Entry<String, Long> r : responded.entrySet()) {
            Long at = seen.get(r.getKey());
            if (at == null) {
                missing++;
            } else {
                lags.add((at - r.getValue()) / 1e6);
                fromSend.add((at - sentAt.get(r.getKey())) / 1e6);
            }
        }
        double[] sorted = write(lags, Path.of(out));
        double[] sortedFromSend = write(fromSend, Path.of(out + ".from-send"));
        long early = Arrays.stream(sorted).filter(v -> v < 0).count();
        System.out.println(String.format(
                Locale.ROOT,
                "lag: %d samples (%.1f modifies/s), %d missing, %d errors; ms p50 %.2f p90 %.2f p99 %.2f max %.2f;"
                        + " %d seen before the response; from the request sent: p50 %.2f p99 %.2f",
                sorted.length,
                samples / (durationNanos / 1e9),
                missing,
                errors,
                percentile(sorted, 50),
                percentile(sorted, 90),
                percentile(sorted, 99),
                sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1],
                early,
                percentile(sortedFromSend, 50),
                percentile(sortedFromSend, 99)));
    }

    /** The values sorted, written one a line (ms) to {@code file}. */
    private static double[] write(List<Double> values, Path file) throws IOException {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8))) {
            Arrays.stream(sorted).forEach(v -> w.println(String.format(Locale.ROOT, "%.3f", v)));
        }
        return sorted;
    }

    private static double percentile(double[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int i = (int) Math.ceil(p / 100 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    /** Up to MAX_TARGETS person DNs of the LDIF, a uniform sample (reservoir) when it holds more. */
    private static List<String> people(Path ldif) throws IOException {
        List<String> dns = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(42);
        long count = 0;
        try (BufferedReader r = Files.newBufferedReader(ldif, StandardCharsets.UTF_8)) {
            for (String line; (line = r.readLine()) != null; ) {
                if (!line.startsWith("dn: cn=") || line.contains("ou=Groups,")) {
                    continue;
                }
                String dn = line.substring(4);
                count++;
                if (dns.size() < MAX_TARGETS) {
                    dns.add(dn);
                } else {
                    long j = random.nextLong(count);
                    if (j < MAX_TARGETS) {
                        dns.set((int) j, dn);
                    }
                }
            }
        }
        if (dns.isEmpty()) {
            throw new IOException(ldif + " holds no person entries (dn: cn=...)");
        }
        return dns;
    }
}
