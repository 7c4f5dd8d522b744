package dev.larch.bench.cli;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;

import dev.larch.bench.resource.JmxGauges;
import dev.larch.bench.resource.JvmGauges;
import dev.larch.bench.resource.JvmReading;
import dev.larch.bench.resource.MetricsEndpointGauges;
import picocli.CommandLine.Option;

/** Where to read a Java server's heap and GC time: a picocli mixin of {@code bench}. */
final class ResourceOptions {
    @Option(
            names = "--server-metrics-url",
            paramLabel = "URL",
            description =
                    "The server's Prometheus metrics endpoint, e.g. http://127.0.0.1:9090/metrics, for heap and GC time.")
    String metricsUrl;

    @Option(
            names = "--server-jmx",
            paramLabel = "HOST:PORT",
            description = "The server's JMX port (or a service:jmx: URL), for heap and GC time.")
    String jmx;

    /**
     * The gauges asked for, read once to prove they work, or null if none were asked for.
     *
     * @throws BadInputException if both are given, or the source cannot be read or has no heap figure
     */
    JvmGauges open() {
        if (metricsUrl != null && jmx != null) {
            throw new BadInputException("give --server-metrics-url or --server-jmx, not both");
        }
        if (metricsUrl == null && jmx == null) {
            return null;
        }
        JvmGauges gauges = metricsUrl != null ? endpoint() : jmx();
        try {
            JvmReading r = gauges.read();
            if (r.heapUsedBytes() == null) {
                gauges.close();
                throw new BadInputException(gauges.source() + " shows no JVM heap figure (larch_jvm_heap_used_bytes "
                        + "or jvm_memory_used_bytes{area=\"heap\"})");
            }
            return gauges;
        } catch (IOException e) {
            gauges.close();
            throw new BadInputException("cannot read " + gauges.source() + ": " + why(e), e);
        }
    }

    /** One line: JDK network exceptions often have no message, and JMX ones nest several lines. */
    private static String why(Exception e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }

    private JvmGauges endpoint() {
        try {
            URI uri = new URI(metricsUrl);
            if ((!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) || uri.getHost() == null) {
                throw new BadInputException("--server-metrics-url must be an http(s) URL, not '" + metricsUrl + "'");
            }
            return new MetricsEndpointGauges(uri);
        } catch (URISyntaxException e) {
            throw new BadInputException("--server-metrics-url is not a URL: " + e.getMessage(), e);
        }
    }

    private JvmGauges jmx() {
        try {
            return JmxGauges.connect(jmx);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(e.getMessage(), e);
        } catch (IOException e) {
            throw new BadInputException("cannot reach --server-jmx " + jmx + ": " + why(e), e);
        }
    }
}
