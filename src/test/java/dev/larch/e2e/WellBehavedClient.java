package dev.larch.e2e;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPConnectionOptions;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.SearchResultEntry;

/**
 * A client that behaves: on its own connection it reads one person of a {@link GeneratedTree} after
 * another (anonymous base lookups, {@link #PAUSE} apart), checks that the entry returned is the one
 * asked for, and records its worst latency and anything wrong, until {@link #close()}.
 *
 * <p>Runs on its own thread; the getters are for the thread that started it, after {@link #close()}.
 */
final class WellBehavedClient implements AutoCloseable {
    static final Duration PAUSE = Duration.ofMillis(20);
    /** How long one answer may take before the client gives up on it (far above what it must meet). */
    static final int RESPONSE_TIMEOUT_MS = 15_000;

    private final GeneratedTree tree;
    private final LDAPConnection connection;
    private final Thread thread;
    private final List<String> problems = new ArrayList<>();
    private volatile boolean running = true;
    private long worstNanos;
    private int lookups;

    private WellBehavedClient(GeneratedTree tree, LDAPConnection connection) {
        this.tree = tree;
        this.connection = connection;
        this.thread = Thread.ofPlatform().daemon().name("well-behaved-client").unstarted(this::lookUpUntilClosed);
    }

    /** Connects to 127.0.0.1:{@code port} and starts looking up. */
    static WellBehavedClient start(GeneratedTree tree, int port) throws LDAPException {
        LDAPConnectionOptions options = new LDAPConnectionOptions();
        options.setResponseTimeoutMillis(RESPONSE_TIMEOUT_MS);
        WellBehavedClient client = new WellBehavedClient(tree, new LDAPConnection(options, "127.0.0.1", port));
        client.thread.start();
        return client;
    }

    private void lookUpUntilClosed() {
        int i = 0;
        try {
            while (running) {
                lookUp(i);
                i = (i + 7919) % tree.people();
                Thread.sleep(PAUSE.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void lookUp(int i) {
        String dn = tree.personDn(i);
        long start = System.nanoTime();
        try {
            SearchResultEntry entry = connection.getEntry(dn, "uid", "mail");
            long nanos = System.nanoTime() - start;
            synchronized (this) {
                lookups++;
                worstNanos = Math.max(worstNanos, nanos);
                if (entry == null
                        || !GeneratedTree.uid(i).equals(entry.getAttributeValue("uid"))
                        || !(GeneratedTree.uid(i) + "@example.com").equals(entry.getAttributeValue("mail"))) {
                    problems.add("wrong answer for " + dn + ": " + entry);
                }
            }
        } catch (LDAPException e) {
            synchronized (this) {
                problems.add("lookup of " + dn + " failed after " + (System.nanoTime() - start) / 1_000_000 + " ms: "
                        + e.getResultCode() + " " + e.getMessage());
            }
        }
    }

    @Override
    public void close() {
        running = false;
        try {
            thread.join(Duration.ofMillis(RESPONSE_TIMEOUT_MS * 2L));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        connection.close();
    }

    synchronized Duration worstLatency() {
        return Duration.ofNanos(worstNanos);
    }

    synchronized int lookups() {
        return lookups;
    }

    /** Failed lookups and wrong answers, in order; empty when every answer was right. */
    synchronized List<String> problems() {
        return List.copyOf(problems);
    }

    @Override
    public synchronized String toString() {
        return String.format(Locale.ROOT, "worst lookup latency %.1f ms over %d lookups", worstNanos / 1e6, lookups);
    }
}
