package dev.larch.config;

import java.nio.file.Path;

/**
 * Monitoring settings ({@code metrics.*}).
 *
 * @param monitor whether the server counts its work and answers the {@code cn=Monitor} subtree
 *     ({@code metrics.monitor}); the Prometheus endpoint needs it
 * @param port the TCP port of the Prometheus endpoint ({@code /metrics}, {@code /health},
 *     {@code /ready}); 0 for no endpoint
 * @param host the address the endpoint binds; null for {@code listen.host}
 * @param bearerTokenFile a file holding the token every request to the endpoint must present as
 *     {@code Authorization: Bearer TOKEN} ({@code metrics.bearer-token-file}); null for no
 *     authentication
 */
public record Metrics(boolean monitor, int port, String host, Path bearerTokenFile) {
    public Metrics {
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("metrics.port must be 0..65535, got " + port);
        }
        if (port != 0 && !monitor) {
            throw new IllegalArgumentException("metrics.port needs metrics.monitor = true");
        }
    }

    /** Whether the HTTP endpoint is served. */
    public boolean endpoint() {
        return port != 0;
    }

    /** The address the endpoint binds: {@link #host} or, when unset, {@code listenHost}. */
    public String hostOr(String listenHost) {
        return host == null ? listenHost : host;
    }
}
