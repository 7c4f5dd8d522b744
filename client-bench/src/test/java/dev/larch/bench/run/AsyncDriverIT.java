package dev.larch.bench.run;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import com.unboundid.ldap.listener.InMemoryDirectoryServer;
import com.unboundid.ldap.listener.InMemoryDirectoryServerConfig;
import com.unboundid.ldap.listener.InMemoryListenerConfig;
import com.unboundid.ldap.sdk.AsyncRequestID;
import com.unboundid.ldap.sdk.AsyncSearchResultListener;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchResultReference;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.bench.mix.ConnectionModel;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The asynchronous driver against an in-memory server: in-flight bounds and requests that run alone. */
class AsyncDriverIT {
    static InMemoryDirectoryServer server;

    @BeforeAll
    static void start() throws Exception {
        InMemoryDirectoryServerConfig config = new InMemoryDirectoryServerConfig("dc=example,dc=com");
        config.setListenerConfigs(
                InMemoryListenerConfig.createLDAPConfig("ldap", InetAddress.getLoopbackAddress(), 0, null));
        server = new InMemoryDirectoryServer(config);
        server.add("dn: dc=example,dc=com", "objectClass: top", "objectClass: domain", "dc: example");
        server.startListening();
    }

    @AfterAll
    static void stop() {
        server.shutDown(true);
    }

    /**
     * A base search of the suffix that counts, on the client, how many requests are in flight on its
     * connection, and notes any overlap with a request that must run alone.
     */
    static final class Probe implements Request {
        final boolean alone;
        final Counters counters;

        Probe(boolean alone, Counters counters) {
            this.alone = alone;
            this.counters = counters;
        }

        @Override
        public int operation() {
            return 0;
        }

        @Override
        public boolean pipelinable() {
            return !alone;
        }

        @Override
        public Answer execute(LDAPConnection connection) {
            throw new UnsupportedOperationException("the driver sends asynchronously");
        }

        @Override
        public void send(LDAPConnection connection, Consumer<Answer> done) {
            int now = counters.inFlight.incrementAndGet();
            counters.maxInFlight.accumulateAndGet(now, Math::max);
            if ((alone && now > 1) || counters.aloneInFlight.get() > 0) {
                counters.overlap.set(true);
            }
            if (alone) {
                counters.alone.incrementAndGet();
                counters.aloneInFlight.incrementAndGet();
            }
            AsyncSearchResultListener listener = new AsyncSearchResultListener() {
                private static final long serialVersionUID = 1L;

                @Override
                public void searchEntryReturned(SearchResultEntry entry) {}

                @Override
                public void searchReferenceReturned(SearchResultReference reference) {}

                @Override
                public void searchResultReceived(AsyncRequestID id, SearchResult result) {
                    if (alone) {
                        counters.aloneInFlight.decrementAndGet();
                    }
                    counters.inFlight.decrementAndGet();
                    counters.answered.incrementAndGet();
                    done.accept(Answer.success(result.getEntryCount()));
                }
            };
            try {
                connection.asyncSearch(new SearchRequest(
                        listener, "dc=example,dc=com", SearchScope.BASE, Filter.createPresenceFilter("objectClass")));
            } catch (LDAPException e) {
                counters.inFlight.decrementAndGet();
                done.accept(Answer.error(e.getResultCode().intValue(), false));
            }
        }
    }

    /** What the probes of one connection saw. */
    static final class Counters {
        final AtomicInteger inFlight = new AtomicInteger();
        final AtomicInteger maxInFlight = new AtomicInteger();
        final AtomicInteger aloneInFlight = new AtomicInteger();
        final AtomicInteger alone = new AtomicInteger();
        final AtomicInteger answered = new AtomicInteger();
        final AtomicBoolean overlap = new AtomicBoolean();
    }

    /** Runs one driver over {@code counters.size()} connections for {@code millis}. */
    private static PacingMetrics.Snapshot drive(
            List<Counters> counters, int outstanding, double ratePerConnection, int aloneEvery, long millis)
            throws Exception {
        return drive(
                counters,
                ConnectionModel.PERSISTENT,
                new OpMetrics(),
                outstanding,
                ratePerConnection,
                aloneEvery,
                millis);
    }

    private static PacingMetrics.Snapshot drive(
            List<Counters> counters,
            ConnectionModel model,
            OpMetrics connects,
            int outstanding,
            double ratePerConnection,
            int aloneEvery,
            long millis)
            throws Exception {
        List<AsyncDriver.Slot> slots = new ArrayList<>();
        for (int i = 0; i < counters.size(); i++) {
            Counters c = counters.get(i);
            int[] n = {0};
            slots.add(new AsyncDriver.Slot(
                    () -> new Probe(aloneEvery > 0 && ++n[0] % aloneEvery == 0, c),
                    i,
                    ratePerConnection,
                    i,
                    counters.size()));
        }
        ServerTarget target = new ServerTarget("127.0.0.1", server.getListenPort(), null, null, 10_000);
        PacingMetrics pacing = new PacingMetrics();
        StartGate gate = new StartGate();
        CountDownLatch ready = new CountDownLatch(1);
        AtomicBoolean stopped = new AtomicBoolean();
        AsyncDriver driver = new AsyncDriver(
                target,
                model,
                slots,
                List.of(new OpMetrics()),
                connects,
                pacing,
                gate,
                ready,
                stopped::get,
                outstanding,
                5_000);
        Thread t = new Thread(driver, "driver");
        t.start();
        ready.await();
        gate.open(System.nanoTime());
        Thread.sleep(millis);
        stopped.set(true);
        t.join(10_000);
        assertTrue(!t.isAlive(), "the driver stopped");
        return pacing.drain();
    }

    @Test
    void eachConnectionHoldsExactlyItsOutstandingRequests() throws Exception {
        List<Counters> counters = List.of(new Counters(), new Counters());
        PacingMetrics.Snapshot s = drive(counters, 3, 0, 0, 700);
        for (Counters c : counters) {
            assertEquals(3, c.maxInFlight.get(), "in flight on one connection");
            assertTrue(c.answered.get() > 50, "answered " + c.answered.get());
            assertEquals(0, c.inFlight.get(), "answers in flight at the stop were waited for");
        }
        assertEquals(3, s.maxInFlight());
    }

    @Test
    void aRequestThatMustRunAloneWaitsUntilItsConnectionIsIdle() throws Exception {
        List<Counters> counters = List.of(new Counters(), new Counters());
        drive(counters, 4, 0, 5, 700);
        for (Counters c : counters) {
            assertTrue(c.alone.get() > 5, "requests that run alone were sent: " + c.alone.get());
            assertEquals(4, c.maxInFlight.get(), "pipelining resumed between them");
            assertTrue(!c.overlap.get(), "a request that must run alone overlapped another");
        }
    }

    @Test
    void pacedConnectionsSendAtTheirRate() throws Exception {
        List<Counters> counters = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            counters.add(new Counters());
        }
        PacingMetrics.Snapshot s = drive(counters, 1, 20, 0, 2_000);
        // 10 connections x 20/s x 2 s, phases staggered over the first 50 ms.
        assertEquals(400, (double) s.starts(), 8, "sent");
        System.out.println("paced: late " + s.lateStarts() + ", max behind " + s.maxMissedNanos() / 1e6
                + " ms, service p99 " + s.service().getValueAtPercentile(99) / 1e6 + " ms");
    }

    @Test
    void perLookupSessionsEndWhenTheirAnswersAreIn() throws Exception {
        List<Counters> counters = List.of(new Counters(), new Counters());
        OpMetrics connects = new OpMetrics();
        drive(counters, new ConnectionModel(true, 2, 4), connects, 3, 0, 0, 700);
        OpMetrics.Snapshot c = connects.drain(null);
        int answered = counters.get(0).answered.get() + counters.get(1).answered.get();
        assertEquals(0, c.errorCount(), c.errors().toString());
        // 2 to 4 requests per session: between a quarter and a half as many sessions as requests.
        assertTrue(
                c.successes() >= answered / 4 && c.successes() <= answered / 2 + 2,
                c.successes() + " sessions for " + answered);
        for (Counters k : counters) {
            assertTrue(k.maxInFlight.get() <= 3, "in flight " + k.maxInFlight.get());
            assertEquals(0, k.inFlight.get());
        }
    }
}
