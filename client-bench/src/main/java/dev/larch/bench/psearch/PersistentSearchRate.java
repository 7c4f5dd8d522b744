package dev.larch.bench.psearch;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import com.unboundid.ldap.sdk.AsyncRequestID;
import com.unboundid.ldap.sdk.AsyncSearchResultListener;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchResultReference;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.controls.PersistentSearchChangeType;
import com.unboundid.ldap.sdk.controls.PersistentSearchRequestControl;

/**
 * Measures persistent search fan-out: {@code listeners} connections each wait on one entry with a
 * persistent search (changesOnly, modify only, entry change notifications), then one connection
 * modifies that entry {@code modifies} times as fast as the server answers. Reports modifies/s (the
 * writer's pace with the listeners attached), notifications/s delivered (all listeners' notifications
 * from the first modify until the last notification arrived) and whether every listener got every
 * notification, in order.
 *
 * <p>Each listener connection makes one modify of its own after starting its search: the server
 * orders it after the search's registration, so once all of those are answered every listener is
 * registered. Only the measured modifies (description {@code m-<n>}) are counted.
 */
public final class PersistentSearchRate {
    /** Where to measure and how much. */
    public record Options(
            String host,
            int port,
            String bindDn,
            String password,
            String entryDn,
            int listeners,
            int modifies,
            long timeoutSeconds) {}

    /** What was measured. */
    public record Result(
            int listeners,
            int modifies,
            double modifySeconds,
            double deliverySeconds,
            long notifications,
            int fewestReceived,
            boolean inOrder) {
        public double modifiesPerSecond() {
            return modifies / modifySeconds;
        }

        public double notificationsPerSecond() {
            return notifications / deliverySeconds;
        }

        public boolean complete() {
            return fewestReceived == modifies && inOrder;
        }

        public void print(PrintStream out) {
            out.printf(
                    Locale.ROOT,
                    "listeners=%d modifies=%d%nmodifies: %.3f s, %.0f/s%n"
                            + "notifications: %d delivered in %.3f s, %.0f/s%n"
                            + "every listener got every notification in order: %s (fewest received %d of %d)%n",
                    listeners,
                    modifies,
                    modifySeconds,
                    modifiesPerSecond(),
                    notifications,
                    deliverySeconds,
                    notificationsPerSecond(),
                    complete() ? "yes" : "NO",
                    fewestReceived,
                    modifies);
        }
    }

    private PersistentSearchRate() {}

    /** Runs the measurement; the entry is created (and left in place) when it does not exist. */
    public static Result run(Options o) throws LDAPException, InterruptedException {
        List<LDAPConnection> connections = new ArrayList<>();
        try {
            LDAPConnection writer = new LDAPConnection(o.host(), o.port(), o.bindDn(), o.password());
            connections.add(writer);
            ensureEntry(writer, o.entryDn());
            List<Counter> counters = new ArrayList<>();
            for (int i = 0; i < o.listeners(); i++) {
                LDAPConnection c = new LDAPConnection(o.host(), o.port(), o.bindDn(), o.password());
                connections.add(c);
                Counter counter = new Counter();
                SearchRequest r =
                        new SearchRequest(counter, o.entryDn(), SearchScope.BASE, "(objectClass=*)", "description");
                r.addControl(new PersistentSearchRequestControl(
                        EnumSet.of(PersistentSearchChangeType.MODIFY), true, true, true));
                c.asyncSearch(r);
                counters.add(counter);
            }
            for (int i = 0; i < o.listeners(); i++) {
                // Ordered after this connection's registration by the server's writer queue.
                connections.get(i + 1).modify(o.entryDn(), describe("sync-" + i));
            }
            long start = System.nanoTime();
            for (int n = 0; n < o.modifies(); n++) {
                writer.modify(o.entryDn(), describe("m-" + n));
            }
            long modified = System.nanoTime();
            long deadline = modified + TimeUnit.SECONDS.toNanos(o.timeoutSeconds());
            while (!allReceived(counters, o.modifies()) && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            long last = start;
            long total = 0;
            int fewest = Integer.MAX_VALUE;
            boolean inOrder = true;
            for (Counter counter : counters) {
                last = Math.max(last, counter.lastArrival.get());
                total += counter.received.get();
                fewest = Math.min(fewest, counter.received.get());
                inOrder &= counter.inOrder;
            }
            return new Result(
                    o.listeners(),
                    o.modifies(),
                    (modified - start) / 1e9,
                    Math.max(1, last - start) / 1e9,
                    total,
                    fewest,
                    inOrder);
        } finally {
            connections.forEach(LDAPConnection::close);
        }
    }

    private static boolean allReceived(List<Counter> counters, int modifies) {
        for (Counter counter : counters) {
            if (counter.received.get() < modifies) {
                return false;
            }
        }
        return true;
    }

    private static Modification describe(String value) {
        return new Modification(ModificationType.REPLACE, "description", value);
    }

    private static void ensureEntry(LDAPConnection c, String dn) throws LDAPException {
        if (c.getEntry(dn, "1.1") != null) {
            return;
        }
        String uid = dn.substring(dn.indexOf('=') + 1, dn.indexOf(','));
        // Throws on any result but success.
        c.add(
                dn,
                List.of(
                        new Attribute("objectClass", "inetOrgPerson"),
                        new Attribute("uid", uid),
                        new Attribute("cn", uid),
                        new Attribute("sn", uid)));
    }

    /** Counts one listener's measured notifications; called on its connection's reader thread. */
    private static final class Counter implements AsyncSearchResultListener {
        private static final long serialVersionUID = 1L;
        final transient AtomicInteger received = new AtomicInteger();
        final transient AtomicLong lastArrival = new AtomicLong();
        volatile boolean inOrder = true;

        @Override
        public void searchEntryReturned(SearchResultEntry entry) {
            String description = entry.getAttributeValue("description");
            if (description == null || !description.startsWith("m-")) {
                return;
            }
            if (Integer.parseInt(description.substring(2)) != received.get()) {
                inOrder = false;
            }
            received.incrementAndGet();
            lastArrival.set(System.nanoTime());
        }

        @Override
        public void searchReferenceReturned(SearchResultReference reference) {}

        @Override
        public void searchResultReceived(AsyncRequestID requestID, SearchResult result) {
            // A persistent search that ends early (limit, shutdown) simply stops counting.
        }
    }
}
