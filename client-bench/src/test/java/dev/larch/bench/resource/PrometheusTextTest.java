package dev.larch.bench.resource;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PrometheusTextTest {
    @Test
    void parsesLarchsEndpointOutputSampleBySample() {
        List<PrometheusText.Sample> samples = PrometheusText.parse(Fixtures.text("larch-metrics.txt"));
        assertEquals(15, samples.size());
        assertTrue(samples.contains(new PrometheusText.Sample("larch_jvm_heap_used_bytes", Map.of(), 46_137_344)));
        assertTrue(samples.contains(new PrometheusText.Sample(
                "larch_jvm_gc_seconds_total", Map.of("collector", "G1 Young Generation"), 1.5)));
        assertTrue(samples.contains(new PrometheusText.Sample(
                "larch_operation_duration_seconds_bucket", Map.of("operation", "search", "le", "+Inf"), 2)));
        assertTrue(samples.contains(new PrometheusText.Sample(
                "larch_operations_total", Map.of("operation", "search", "result", "success"), 1234)));
    }

    @Test
    void labelValuesUnescapeQuotesBackslashesAndNewlinesAndMayHoldCommasAndBraces() {
        List<PrometheusText.Sample> samples =
                PrometheusText.parse("m{a=\"x\\\"y\\\\z\",b=\"1,2}\",c=\"l\\nm\"} 3 1700000000000\n");
        assertEquals(
                Map.of("a", "x\"y\\z", "b", "1,2}", "c", "l\nm"), samples.get(0).labels());
        assertEquals(3, samples.get(0).value());
        assertEquals(
                "weird \"name\"\\x",
                PrometheusText.parse(Fixtures.text("larch-metrics.txt")).stream()
                        .filter(s -> s.name().equals("larch_lmdb_records"))
                        .toList()
                        .get(1)
                        .labels()
                        .get("database"));
    }

    @Test
    void specialValues() {
        List<PrometheusText.Sample> s = PrometheusText.parse("a +Inf\nb -Inf\nc NaN\nd 1e3\n");
        assertEquals(Double.POSITIVE_INFINITY, s.get(0).value());
        assertEquals(Double.NEGATIVE_INFINITY, s.get(1).value());
        assertTrue(Double.isNaN(s.get(2).value()));
        assertEquals(1000, s.get(3).value());
    }

    @Test
    void somethingElseIsRejectedNamingTheLine() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> PrometheusText.parse("# ok\n<html>\n"));
        assertTrue(e.getMessage().contains("line 2"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PrometheusText.parse("m{a=\"x} 1\n"));
        assertThrows(IllegalArgumentException.class, () -> PrometheusText.parse("m{a=x} 1\n"));
        assertThrows(IllegalArgumentException.class, () -> PrometheusText.parse("m\n"));
        assertThrows(IllegalArgumentException.class, () -> PrometheusText.parse("m one\n"));
    }
}
