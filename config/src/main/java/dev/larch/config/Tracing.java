package dev.larch.config;

import java.util.Objects;

/**
 * Per-operation tracing with OpenTelemetry, exported over OTLP/HTTP. Off unless an endpoint is set.
 *
 * @param otlpEndpoint the OTLP/HTTP collector's base URL, for example {@code http://127.0.0.1:4318}
 *     (spans go to {@code /v1/traces} under it); null when tracing is off
 * @param serviceName the {@code service.name} resource attribute of every span; never blank
 * @param sampleRatio the share of operations traced, 0.0 to 1.0 (a parent-less ratio sampler)
 * @param maxQueueSize spans waiting for export at most; beyond it new spans are dropped, so a slow or
 *     absent collector costs bounded memory and never blocks an operation
 */
public record Tracing(String otlpEndpoint, String serviceName, double sampleRatio, int maxQueueSize) {

    public Tracing {
        Objects.requireNonNull(serviceName, "serviceName");
        if (serviceName.isBlank()) {
            throw new IllegalArgumentException("serviceName must not be blank");
        }
        if (!(sampleRatio >= 0.0 && sampleRatio <= 1.0)) {
            throw new IllegalArgumentException("sampleRatio must be within 0.0..1.0");
        }
        if (maxQueueSize < 1) {
            throw new IllegalArgumentException("maxQueueSize must be at least 1");
        }
        if (otlpEndpoint != null && otlpEndpoint.isBlank()) {
            otlpEndpoint = null;
        }
    }

    /** Whether spans are recorded and exported. */
    public boolean enabled() {
        return otlpEndpoint != null;
    }
}
