package dev.larch.bench.resource;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import javax.management.remote.JMXConnectorServer;
import javax.management.remote.JMXConnectorServerFactory;
import javax.management.remote.JMXServiceURL;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JmxGaugesTest {
    @Test
    void readsHeapAndGcTimeOfAJvmOverJmx() throws IOException {
        // this JVM serves JMX on an ephemeral RMI port; its address is a stub URL, no registry needed
        JMXConnectorServer server = JMXConnectorServerFactory.newJMXConnectorServer(
                new JMXServiceURL("service:jmx:rmi://127.0.0.1"), null, ManagementFactory.getPlatformMBeanServer());
        server.start();
        try (JmxGauges gauges = JmxGauges.connect(server.getAddress().toString())) {
            System.gc(); // at least one collection, so GC time can be counted
            JvmReading r = gauges.read();
            assertTrue(r.heapUsedBytes() > 0);
            assertTrue(r.gcSeconds() >= 0);
            assertEquals(
                    ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getMax(),
                    r.heapMaxBytes() == null ? -1 : r.heapMaxBytes());
            assertTrue(gauges.source().startsWith("jmx service:jmx:rmi:"));
        } finally {
            server.stop();
        }
    }

    @Test
    void hostAndPortBecomeTheStandardRmiRegistryUrl() {
        assertEquals(
                "service:jmx:rmi:///jndi/rmi://db1:9010/jmxrmi",
                JmxGauges.url("db1:9010").toString());
        assertThrows(IllegalArgumentException.class, () -> JmxGauges.url("db1"));
        assertThrows(IllegalArgumentException.class, () -> JmxGauges.url("db1:x"));
    }

    @Test
    void anUnreachableJvmFailsToConnect() {
        assertThrows(IOException.class, () -> JmxGauges.connect("127.0.0.1:1"));
    }
}
