package dev.larch.server.warmup;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

import dev.larch.config.WarmUp;
import dev.larch.server.directory.Directory;
import dev.larch.server.net.BeforeListening;
import dev.larch.server.net.LoopbackLoad;
import dev.larch.server.protocol.ByteCounts;
import dev.larch.server.protocol.RequestHandler;
import org.apache.directory.api.ldap.codec.api.LdapApiServiceFactory;
import org.apache.directory.api.ldap.model.message.SearchRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's self-warm-up ({@code server.warm-up-seconds}): before the listener binds its ports,
 * sends the searches {@link WarmUpRequests} picks from the store through the real connection
 * pipeline over private loopback connections ({@link LoopbackLoad}), to a second instance of the
 * server's handler chain (the same decorators, with counters, rate quota buckets and an access log
 * switch of their own that nothing shows), until the JIT compilers have gone quiet ({@link
 * CompilerQuiet}) or the configured time is up, and logs one line.
 *
 * <p>Why until the compilers are quiet: the load makes the request path hot within a second or two,
 * but compiling it takes the JIT's optimizing compiler far longer on a small machine; a warm-up that
 * stops on a fixed count leaves that queue to be compiled after the port opens, beside the clients.
 *
 * <p>Safe by construction: only searches, after an anonymous bind per connection; every request has a size and time limit; each
 * distinct request is sent at most {@value #MAX_PASSES} times, so a store with few entries ends
 * early and an empty one at once. The index lookup counters ({@code cn=Monitor}) are reset afterwards,
 * so they count clients' searches only. A failure is logged and the server starts anyway.
 */
public final class SelfWarmUp implements BeforeListening {
    private static final Logger LOG = LoggerFactory.getLogger(SelfWarmUp.class);

    /** Entries the requests are drawn from, at most. */
    static final int SAMPLED_ENTRIES = 1000;
    /** Each distinct request is sent at most this many times. */
    static final int MAX_PASSES = 100;
    /**
     * Loopback connections per event loop, each one request at a time as most clients send them:
     * enough to keep the event loops busy while leaving the compiler threads a share of the cores.
     */
    static final int CONNECTIONS_PER_EVENT_LOOP = 2;
    /** Never ends on quiet compilers before this: the load needs a moment to make its paths hot. */
    static final Duration MINIMUM = Duration.ofSeconds(3);
    /** Compile time is summed over this window... */
    static final Duration QUIET_WINDOW = Duration.ofSeconds(2);
    /** ...and at most this much of it in the window is quiet. */
    static final long QUIET_MILLIS = 100;

    private final WarmUp settings;
    private final Directory directory;
    private final RequestHandler handler;
    private final ByteCounts bytes;

    /**
     * @param handler what serves the warm-up's requests: the server's handler chain built a second
     *     time, its counting, quotas and access log of its own
     * @param bytes told of the warm-up's bytes as the listener tells the server's byte counter; null
     *     when the server counts none
     */
    public SelfWarmUp(WarmUp settings, Directory directory, RequestHandler handler, ByteCounts bytes) {
        this.settings = settings;
        this.directory = directory;
        this.handler = handler;
        this.bytes = bytes;
    }

    @Override
    public void run(LoopbackLoad loopback) {
        if (!settings.enabled()) {
            return;
        }
        long start = System.nanoTime();
        try {
            List<SearchRequest> requests = WarmUpRequests.pick(directory, SAMPLED_ENTRIES);
            if (requests.isEmpty()) {
                LOG.info("warm-up: the store holds no entry to read; the port opens at once");
                return;
            }
            List<byte[]> encoded = WarmUpRequests.encode(LdapApiServiceFactory.getSingleton(), requests);
            CompilerQuiet quiet = CompilerQuiet.ofThisJvm(MINIMUM, QUIET_WINDOW, QUIET_MILLIS);
            long maxSends = (long) encoded.size() * MAX_PASSES;
            LoopbackLoad.Result r = loopback.drive(
                    handler,
                    bytes,
                    encoded,
                    maxSends,
                    Duration.ofSeconds(settings.seconds()),
                    loopback.eventLoops() * CONNECTIONS_PER_EVENT_LOOP,
                    1,
                    () -> {
                        boolean done = quiet.getAsBoolean();
                        LOG.debug(
                                "warm-up: JIT compile time in the last {} ms: {} ms",
                                QUIET_WINDOW.toMillis(),
                                quiet.lastWindowMillis());
                        return done;
                    });
            LOG.info(
                    "warm-up before listening: {} searches ({} distinct, drawn from the store; {} answered, {} with"
                            + " an error, {} entries returned) on {} loopback connections in {} s; it ended when {}"
                            + " (server.warm-up-seconds = {})",
                    r.sent(),
                    encoded.size(),
                    r.answered(),
                    r.failed(),
                    r.entries(),
                    r.connections(),
                    seconds(System.nanoTime() - start),
                    quiet.wentQuiet()
                            ? "the JIT compilers went quiet (" + quiet.lastWindowMillis()
                                    + " ms of compiling in the last " + QUIET_WINDOW.toSeconds() + " s)"
                            : r.sent() >= maxSends
                                    ? "each search had been sent " + MAX_PASSES + " times"
                                    : "its time was up (JIT compiling in the last " + QUIET_WINDOW.toSeconds() + " s: "
                                            + quiet.lastWindowMillis() + " ms)",
                    settings.seconds());
        } catch (RuntimeException e) {
            LOG.warn(
                    "warm-up failed after {} s ({}); the server starts without it",
                    seconds(System.nanoTime() - start),
                    e.toString(),
                    e);
        } finally {
            directory.store().indexes().forgetLookups();
        }
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.1f", nanos / 1e9);
    }
}
