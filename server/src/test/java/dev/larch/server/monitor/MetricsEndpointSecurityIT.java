package dev.larch.server.monitor;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.larch.server.testing.LarchServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The endpoint as an outsider meets it: without the configured bearer token every path answers 401,
 * and clients that send half a request and stop cannot keep the probes from being answered.
 */
class MetricsEndpointSecurityIT {
    private static final String TOKEN = "s3cret-scrape-token-0123456789";
    private static final Path TOKEN_FILE = tokenFile();

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree()
            .configured(c -> c.set("metrics.port", freePort())
                    .set("metrics.host", "127.0.0.1")
                    .set("metrics.bearer-token-file", TOKEN_FILE));

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path tokenFile() {
        try {
            Path file = Files.createTempFile("larch-metrics-token", ".txt");
            file.toFile().deleteOnExit();
            return Files.writeString(file, TOKEN + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private HttpResponse<String> get(String path, String authorization) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(
                        "http://127.0.0.1:" + larch.server().metricsAddress().getPort() + path))
                .timeout(Duration.ofSeconds(20));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void everyPathWantsTheBearerToken() throws Exception {
        for (String path : List.of("/metrics", "/health", "/ready")) {
            HttpResponse<String> none = get(path, null);
            assertEquals(401, none.statusCode(), path);
            assertTrue(none.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Bearer"), path);
            assertFalse(none.body().contains("larch_"), none.body());
            assertEquals(401, get(path, "Bearer " + TOKEN.substring(1)).statusCode(), path);
            assertEquals(401, get(path, "Basic " + TOKEN).statusCode(), path);
            assertEquals(200, get(path, "Bearer " + TOKEN).statusCode(), path);
        }
        assertTrue(get("/metrics", "bearer " + TOKEN).body().contains("larch_"));
    }

    /** With one serving thread, a single half-sent request held /health until its sender gave up. */
    @Test
    void halfSentRequestsDoNotStallTheProbes() throws Exception {
        List<Socket> stalled = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                Socket socket =
                        new Socket("127.0.0.1", larch.server().metricsAddress().getPort());
                OutputStream out = socket.getOutputStream();
                out.write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ".getBytes(US_ASCII));
                out.flush();
                stalled.add(socket);
            }
            Thread.sleep(200); // the half-sent requests reach the server's threads first
            assertEquals(200, get("/health", "Bearer " + TOKEN).statusCode());
            assertEquals(200, get("/ready", "Bearer " + TOKEN).statusCode());
        } finally {
            for (Socket socket : stalled) {
                socket.close();
            }
        }
    }
}
