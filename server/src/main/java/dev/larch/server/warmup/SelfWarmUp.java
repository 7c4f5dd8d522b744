package dev.larch.server.warmup;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

import dev.larch.config.WarmUp;
import dev.larch.server.directory.Directory;
import dev.larch.server.net.BeforeListening;
import dev.larch.server.net.LoopbackLoad;
import dev.larch.server.protocol.RequestHandler;
import org.apache.directory.api.ldap.codec.api.LdapApiServiceFactory;
import org.apache.directory.api.ldap.model.message.SearchRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's self-warm-up ({@code server.warm-up-seconds}): before the listener binds its ports,
 * sends the searches {@link WarmUpRequests} picks from the store through the real connection
 * pipeline over private loopback connections ({@link LoopbackLoad}), to a request handler without the
 * access log, the operation counters and the rate quotas, for the configured time, and logs one line.
 *
 * <p>Safe by construction: only searches, no bind; every request has a size and time limit; each
 * distinct request is sent at most {@value #MAX_PASSES} times, so a store with few entries ends
 * early and an empty one at once. The index lookup counters ({@code cn=Monitor}) are reset afterwards,
 * so they count clients' searches only. A failure is logged and the server starts anyway.
 */
public final class SelfWarmUp implements BeforeListening {
    private static final Logger LOG = LoggerFactory.getLogger(SelfWarmUp.class);

    /** Entries the requests are drawn from, at most. */
    static final int SAMPLED_ENTRIES = 1000;
    /** Each distinct request is sent at most this many times. */
    static final int MAX_PASSES = 20;
    /** Requests unanswered at once on each loopback connection. */
    static final int WINDOW = 4;

    private final WarmUp settings;
    private final Directory directory;
    private final RequestHandler handler;

    /**
     * @param handler what serves the warm-up's requests: the server's handler chain without the access
     *     log, counting and rate quotas around it
     */
    public SelfWarmUp(WarmUp settings, Directory directory, RequestHandler handler) {
        this.settings = settings;
        this.directory = directory;
        this.handler = handler;
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
            int connections = loopback.eventLoops();
            LoopbackLoad.Result r = loopback.drive(
                    handler,
                    encoded,
                    (long) encoded.size() * MAX_PASSES,
                    Duration.ofSeconds(settings.seconds()),
                    connections,
                    WINDOW);
            LOG.info(
                    "warm-up before listening: {} searches ({} distinct, drawn from the store; {} answered, {} with"
                            + " an error, {} entries returned) on {} loopback connections in {} s (server.warm-up-seconds"
                            + " = {})",
                    r.sent(),
                    encoded.size(),
                    r.answered(),
                    r.failed(),
                    r.entries(),
                    r.connections(),
                    seconds(System.nanoTime() - start),
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
