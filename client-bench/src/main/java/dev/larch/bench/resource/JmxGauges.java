package dev.larch.bench.resource;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryUsage;
import java.net.MalformedURLException;
import java.util.List;
import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * Heap and GC time of a remote JVM over JMX ({@code -Dcom.sun.management.jmxremote.port=N} on the
 * server side, or any JMX service URL). One connection is kept for all readings; thread-safe.
 */
public final class JmxGauges implements JvmGauges {
    private final String address;
    private final JMXConnector connector;
    private final MemoryMXBean memory;
    private final List<GarbageCollectorMXBean> collectors;

    private JmxGauges(String address, JMXConnector connector, MemoryMXBean memory, List<GarbageCollectorMXBean> gcs) {
        this.address = address;
        this.connector = connector;
        this.memory = memory;
        this.collectors = gcs;
    }

    /**
     * Connects to {@code host:port} (the RMI registry of {@code com.sun.management.jmxremote.port}) or
     * to a full {@code service:jmx:...} URL.
     *
     * @throws IllegalArgumentException if {@code address} is neither
     * @throws IOException if the JVM cannot be reached
     */
    public static JmxGauges connect(String address) throws IOException {
        JMXServiceURL url = url(address);
        JMXConnector connector = JMXConnectorFactory.connect(url);
        try {
            MBeanServerConnection mbs = connector.getMBeanServerConnection();
            MemoryMXBean memory = ManagementFactory.newPlatformMXBeanProxy(
                    mbs, ManagementFactory.MEMORY_MXBEAN_NAME, MemoryMXBean.class);
            List<GarbageCollectorMXBean> gcs = ManagementFactory.getPlatformMXBeans(mbs, GarbageCollectorMXBean.class);
            return new JmxGauges(address, connector, memory, gcs);
        } catch (IOException | RuntimeException e) {
            connector.close();
            throw e;
        }
    }

    static JMXServiceURL url(String address) {
        try {
            if (address.startsWith("service:jmx:")) {
                return new JMXServiceURL(address);
            }
            int colon = address.lastIndexOf(':');
            if (colon <= 0
                    || colon == address.length() - 1
                    || !address.substring(colon + 1).chars().allMatch(Character::isDigit)) {
                throw new IllegalArgumentException(
                        "--server-jmx wants host:port or a service:jmx: URL, not '" + address + "'");
            }
            return new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + address + "/jmxrmi");
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("--server-jmx: " + e.getMessage(), e);
        }
    }

    @Override
    public String source() {
        return "jmx " + address;
    }

    @Override
    public JvmReading read() throws IOException {
        try {
            MemoryUsage heap = memory.getHeapMemoryUsage();
            long gcMillis = 0;
            for (GarbageCollectorMXBean gc : collectors) {
                gcMillis += Math.max(0, gc.getCollectionTime()); // -1: this collector does not tell
            }
            return new JvmReading(heap.getUsed(), heap.getMax() < 0 ? null : heap.getMax(), gcMillis / 1000.0);
        } catch (RuntimeException e) {
            // proxies wrap a lost connection in UndeclaredThrowableException
            throw new IOException("JMX " + address + ": " + e, e);
        }
    }

    @Override
    public void close() {
        try {
            connector.close();
        } catch (IOException e) {
            // nothing to do: the connection is gone either way
        }
    }
}
