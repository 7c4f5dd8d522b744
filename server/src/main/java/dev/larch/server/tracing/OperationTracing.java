package dev.larch.server.tracing;

import java.util.concurrent.TimeUnit;

import dev.larch.config.Tracing;
import dev.larch.server.auth.PasswordAttributes;
import dev.larch.server.protocol.RequestHandler;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.sdk.trace.samplers.Sampler;

/**
 * The OpenTelemetry SDK as tracing needs it: a tracer provider with the service's name, a ratio
 * sampler, and a batch processor in front of the exporter. The batch processor queues at most
 * {@code tracing.max-queue-size} spans and drops new ones beyond that; it exports on its own thread,
 * so an event loop only ever enqueues (never waits on the network, whatever the collector does).
 * Owned by the server, which {@link #close}s it after its listener stopped.
 */
public final class OperationTracing implements AutoCloseable {
    /** The {@code service.name} resource attribute (OpenTelemetry semantic conventions). */
    private static final AttributeKey<String> SERVICE_NAME = AttributeKey.stringKey("service.name");

    private static final String INSTRUMENTATION = "dev.larch.server";

    private final SdkTracerProvider provider;

    private OperationTracing(SdkTracerProvider provider) {
        this.provider = provider;
    }

    /**
     * Tracing as {@code config} sets it up: spans exported over OTLP/HTTP (protobuf) to {@code
     * <endpoint>/v1/traces}, or null when {@code tracing.otlp-endpoint} is not set, in which case no SDK
     * object is created at all.
     */
    public static OperationTracing open(Tracing config) {
        if (!config.enabled()) {
            return null;
        }
        String endpoint = config.otlpEndpoint().replaceFirst("/+$", "") + "/v1/traces";
        return exportingTo(OtlpHttpSpanExporter.builder().setEndpoint(endpoint).build(), config);
    }

    /** Tracing with spans handed to {@code exporter} (tests use an in-memory one); the rest as {@code config}. */
    public static OperationTracing exportingTo(SpanExporter exporter, Tracing config) {
        BatchSpanProcessor batch = BatchSpanProcessor.builder(exporter)
                .setMaxQueueSize(config.maxQueueSize())
                .setMaxExportBatchSize(Math.min(512, config.maxQueueSize()))
                .build();
        SdkTracerProvider provider = SdkTracerProvider.builder()
                .setResource(
                        Resource.getDefault().merge(Resource.create(Attributes.of(SERVICE_NAME, config.serviceName()))))
                .setSampler(Sampler.traceIdRatioBased(config.sampleRatio()))
                .addSpanProcessor(batch)
                .build();
        return new OperationTracing(provider);
    }

    /** {@code next} with a span recorded around each of its operations. */
    public RequestHandler around(RequestHandler next, PasswordAttributes passwords) {
        return new TracingHandler(next, provider.get(INSTRUMENTATION), passwords);
    }

    /** Exports what is queued (tests wait for it); at most {@code seconds}. */
    public void flush(long seconds) {
        provider.forceFlush().join(seconds, TimeUnit.SECONDS);
    }

    /** Exports what is queued, waiting at most ten seconds, then stops the export thread. */
    @Override
    public void close() {
        provider.shutdown().join(10, TimeUnit.SECONDS);
    }
}
