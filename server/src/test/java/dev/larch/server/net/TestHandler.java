package dev.larch.server.net;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.larch.server.protocol.Operation;
import dev.larch.server.protocol.RequestHandler;
import org.apache.directory.api.ldap.model.entry.DefaultEntry;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.message.ResultResponseRequest;
import org.apache.directory.api.ldap.model.message.SearchRequest;
import org.apache.directory.api.ldap.model.message.SearchResultEntryImpl;
import org.apache.directory.api.ldap.model.name.Dn;

/**
 * A request handler for protocol tests, chosen by the search base's first RDN value:
 * {@code ou=later} completes 300 ms later from another thread, {@code ou=never} never completes,
 * {@code ou=stream} streams {@link #STREAMED} entries respecting writability, {@code ou=boom} throws;
 * any other search returns two entries. Every other request succeeds at once. Records the base of
 * every search it is handed, so a test can wait until a request has reached it.
 */
final class TestHandler implements RequestHandler, AutoCloseable {

    static final int STREAMED = 10_000;
    static final String FILLER = "x".repeat(2000);

    final ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor();
    final AtomicInteger streamedEntries = new AtomicInteger();
    final AtomicInteger streamPauses = new AtomicInteger();
    final CountDownLatch streamStopped = new CountDownLatch(1);
    final Set<String> searchedBases = ConcurrentHashMap.newKeySet();
    volatile boolean streamSawAbandon;

    @Override
    public void handle(Operation op) {
        if (!(op.request() instanceof SearchRequest search)) {
            op.complete(success(op));
            return;
        }
        String base = search.getBase().getName();
        searchedBases.add(base);
        switch (base) {
            case "ou=later" -> later.schedule(() -> op.complete(success(op)), 300, TimeUnit.MILLISECONDS);
            case "ou=never" -> {}
            case "ou=boom" -> throw new IllegalStateException("handler bug with secret details");
            case "ou=stream" -> new Streamer(op).run();
            default -> {
                op.send(entry(op, "cn=one," + base, "one"));
                op.send(entry(op, "cn=two," + base, "two"));
                op.complete(success(op));
            }
        }
    }

    private final class Streamer implements Runnable {
        private final Operation op;
        private int next;

        Streamer(Operation op) {
            this.op = op;
        }

        @Override
        public void run() {
            while (next < STREAMED) {
                if (op.isAbandoned()) {
                    streamSawAbandon = true;
                    streamStopped.countDown();
                    return;
                }
                streamedEntries.incrementAndGet();
                if (!op.send(entry(op, "cn=e" + next + ",ou=stream", FILLER))) {
                    next++;
                    streamPauses.incrementAndGet();
                    op.onWritable(this);
                    return;
                }
                next++;
            }
            op.complete(success(op));
            streamStopped.countDown();
        }
    }

    static ResultResponse success(Operation op) {
        ResultResponse response = ((ResultResponseRequest) op.request()).getResultResponse();
        response.getLdapResult().setResultCode(ResultCodeEnum.SUCCESS);
        return response;
    }

    static SearchResultEntryImpl entry(Operation op, String dn, String description) {
        try {
            SearchResultEntryImpl entry = new SearchResultEntryImpl(op.request().getMessageId());
            entry.setEntry(new DefaultEntry(new Dn(dn), "objectClass: top", "description: " + description));
            return entry;
        } catch (LdapException e) {
            throw new IllegalArgumentException(e);
        }
    }

    @Override
    public void close() {
        later.shutdownNow();
    }
}
