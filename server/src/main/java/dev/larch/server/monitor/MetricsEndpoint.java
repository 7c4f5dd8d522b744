package dev.larch.server.monitor;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import dev.larch.config.Metrics;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import org.apache.directory.api.ldap.model.schema.SchemaManager;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * The Prometheus endpoint ({@code metrics.port}): {@code GET /metrics} in the Prometheus text format
 * (or OpenMetrics, as the scraper asks), written by the Prometheus Java client's HTTP server from
 * {@link PrometheusMetrics}; {@code /health} answers 200 while the process serves HTTP at all (live);
 * {@code /ready} answers 200 when the store is open and the LDAP listener accepts, else 503. Other
 * paths: 404.
 *
 * <p>Who may use it: with {@code metrics.bearer-token-file}, only requests carrying that token
 * ({@link BearerToken}), on every path; without it, anyone who can reach the port. It shows counts
 * and sizes, never entries or DNs, but it binds {@code metrics.host} ({@code listen.host} by default)
 * and should be reachable only from the monitoring system (a firewall, or a loopback or private
 * address). Bounds: {@value #THREADS} threads serve requests, and a request that has not arrived whole
 * within {@value #REQUEST_SECONDS} s is dropped, so a few half-sent requests cannot stall
 * {@code /health} and {@code /ready} for long; a scrape reads counters and one LMDB statistics pass,
 * so its cost does not grow with the directory.
 */
public final class MetricsEndpoint implements AutoCloseable {
    /**
     * Threads serving requests. The JDK's HTTP server reads a request on the thread that serves it, so
     * with one thread a single client sending half a request held every probe until it gave up.
     */
    static final int THREADS = 4;

    /** How long a request may take to arrive, in seconds; then its connection is closed. */
    static final int REQUEST_SECONDS = 5;

    static {
        // The JDK's HTTP server reads its limits once, from system properties; an operator's own win.
        if (System.getProperty("sun.net.httpserver.maxReqTime") == null) {
            System.setProperty("sun.net.httpserver.maxReqTime", Integer.toString(REQUEST_SECONDS));
        }
    }

    private final HTTPServer http;
    private final ExecutorService thread;
    private final InetSocketAddress address;

    private MetricsEndpoint(HTTPServer http, ExecutorService thread, InetSocketAddress address) {
        this.http = http;
        this.thread = thread;
        this.address = address;
    }

    /**
     * Binds {@code host} and {@code settings}' port and starts serving.
     *
     * @throws IOException naming the address and the {@code metrics.port} key when it cannot be bound,
     *     or {@code metrics.bearer-token-file} when the token cannot be read
     */
    public static MetricsEndpoint start(MonitoredServer server, SchemaManager schema, Metrics settings, String host)
            throws IOException {
        BearerToken token =
                settings.bearerTokenFile() == null ? null : BearerToken.readFrom(settings.bearerTokenFile());
        AtomicInteger count = new AtomicInteger();
        ExecutorService thread = Executors.newFixedThreadPool(THREADS, r -> {
            Thread t = new Thread(r, "larch-metrics-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        int port = settings.port();
        try {
            HTTPServer.Builder builder = HTTPServer.builder()
                    .hostname(host)
                    .port(port)
                    .registry(PrometheusMetrics.of(server, schema))
                    .executorService(thread)
                    .defaultHandler(exchange -> route(exchange, server));
            if (token != null) {
                builder.authenticator(token);
            }
            HTTPServer http = builder.buildAndStart();
            return new MetricsEndpoint(http, thread, new InetSocketAddress(host, http.getPort()));
        } catch (IOException | RuntimeException e) {
            thread.shutdownNow();
            throw new IOException(
                    "cannot serve metrics on " + host + ":" + port + " (metrics.port): " + e.getMessage(), e);
        }
    }

    /** {@code /health} and {@code /ready}; everything else but {@code /metrics} is not found. */
    private static void route(HttpExchange exchange, MonitoredServer server) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            switch (path) {
                case "/health" -> reply(exchange, 200, "live\n");
                case "/ready" -> {
                    if (server.ready()) {
                        reply(exchange, 200, "ready\n");
                    } else {
                        reply(exchange, 503, "not ready: store closed or LDAP listener not accepting\n");
                    }
                }
                default -> reply(exchange, 404, "not found; try /metrics, /health or /ready\n");
            }
        }
    }

    private static void reply(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        boolean head = "HEAD".equals(exchange.getRequestMethod());
        exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
        if (!head) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    /** Where the endpoint listens (the real port when 0 was asked for). */
    public InetSocketAddress address() {
        return address;
    }

    @Override
    public void close() {
        http.close();
        thread.shutdown();
        try {
            if (!thread.awaitTermination(2, TimeUnit.SECONDS)) {
                thread.shutdownNow();
            }
        } catch (InterruptedException e) {
            thread.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
