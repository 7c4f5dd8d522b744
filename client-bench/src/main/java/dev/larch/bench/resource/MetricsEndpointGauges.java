package dev.larch.bench.resource;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;

/**
 * Heap and GC time from a Prometheus metrics endpoint. Understands Larch's own series
 * ({@code larch_jvm_heap_used_bytes}, {@code larch_jvm_heap_max_bytes}, {@code
 * larch_jvm_gc_seconds_total} summed over collectors) and the usual JVM series of
 * the Prometheus Java client and Micrometer ({@code jvm_memory_used_bytes{area="heap"}} summed over
 * pools, {@code jvm_memory_max_bytes{area="heap"}}, {@code jvm_gc_collection_seconds_sum} or
 * {@code jvm_gc_pause_seconds_sum} summed over collectors). A series that is absent reads as null.
 */
public final class MetricsEndpointGauges implements JvmGauges {
    private final URI url;
    private final HttpClient http;

    public MetricsEndpointGauges(URI url) {
        this.url = url;
        this.http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    }

    @Override
    public String source() {
        return url.toString();
    }

    @Override
    public JvmReading read() throws IOException {
        HttpRequest request = HttpRequest.newBuilder(url)
                .timeout(Duration.ofSeconds(5))
                .header("Accept", "text/plain; version=0.0.4")
                .GET()
                .build();
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading " + url, e);
        }
        if (response.statusCode() != 200) {
            throw new IOException(url + " answered HTTP " + response.statusCode());
        }
        try {
            return reading(PrometheusText.parse(response.body()));
        } catch (IllegalArgumentException e) {
            throw new IOException(url + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        http.close(); // its selector thread would otherwise live until the client is collected
    }

    /** The JVM figures among {@code samples}. */
    public static JvmReading reading(List<PrometheusText.Sample> samples) {
        Double used = first(
                sum(samples, s -> s.name().equals("larch_jvm_heap_used_bytes")),
                sum(samples, s -> s.name().equals("jvm_memory_used_bytes") && heap(s)));
        Double max = first(
                sum(samples, s -> s.name().equals("larch_jvm_heap_max_bytes") && s.value() >= 0),
                sum(samples, s -> s.name().equals("jvm_memory_max_bytes") && heap(s) && s.value() >= 0));
        Double gc = first(
                sum(samples, s -> s.name().equals("jvm_gc_collection_seconds_sum")),
                sum(samples, s -> s.name().equals("jvm_gc_pause_seconds_sum")),
                sum(samples, s -> s.name().equals("larch_jvm_gc_seconds_total")));
        return new JvmReading(
                used == null ? null : used.longValue(), max == null || max <= 0 ? null : max.longValue(), gc);
    }

    private static boolean heap(PrometheusText.Sample s) {
        return "heap".equals(s.labels().get("area"));
    }

    /** Sum of the matching samples, or null when none matches. */
    private static Double sum(List<PrometheusText.Sample> samples, Predicate<PrometheusText.Sample> which) {
        List<PrometheusText.Sample> hits = samples.stream().filter(which).toList();
        return hits.isEmpty()
                ? null
                : hits.stream().mapToDouble(PrometheusText.Sample::value).sum();
    }

    /** The first reading that is present, or null. */
    private static Double first(Double... readings) {
        for (Double r : readings) {
            if (r != null) {
                return r;
            }
        }
        return null;
    }
}
