package dev.larch.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;

/**
 * Reads a server JVM's memory from inside that JVM: attaches with the JDK Attach API, starts its
 * local JMX agent and asks its MXBeans. Three figures:
 *
 * <ul>
 *   <li>heap used ({@link MemoryMXBean}), garbage included, and the heap the collector found live
 *       after its most recent collection ({@link MemoryPoolMXBean#getCollectionUsage()});
 *   <li>the NIO "direct" buffer pool ({@link BufferPoolMXBean}): buffers made by
 *       {@code ByteBuffer.allocateDirect};
 *   <li>native memory of category "Other" from Native Memory Tracking ({@code jcmd VM.native_memory},
 *       through the DiagnosticCommand MBean). Netty allocates its direct buffers without a cleaner
 *       ({@code Unsafe.allocateMemory}) when it may, and those never appear in the NIO pool; NMT's
 *       "Other" counts both kinds. It needs the server started with
 *       {@code -XX:NativeMemoryTracking=summary} ({@link #JVM_OPTIONS}).
 * </ul>
 *
 * <p>Not thread-safe; one test thread (or one {@link MemoryPeaks} sampler) uses it.
 */
final class ServerMemory implements AutoCloseable {
    /** What the server JVM needs for {@link #nativeOtherBytes()}. */
    static final List<String> JVM_OPTIONS = List.of("-XX:NativeMemoryTracking=summary");

    private static final Pattern NMT_OTHER = Pattern.compile("-\\s+Other \\(reserved=(\\d+)KB, committed=(\\d+)KB\\)");

    private final JMXConnector connector;
    private final MemoryMXBean memory;
    private final BufferPoolMXBean directPool;
    private final List<MemoryPoolMXBean> heapPools;
    private final MBeanServerConnection mbeans;
    private final ObjectName diagnostics;

    private ServerMemory(JMXConnector connector) throws IOException, JMException {
        this.connector = connector;
        this.mbeans = connector.getMBeanServerConnection();
        this.memory = ManagementFactory.newPlatformMXBeanProxy(
                mbeans, ManagementFactory.MEMORY_MXBEAN_NAME, MemoryMXBean.class);
        this.directPool = ManagementFactory.newPlatformMXBeanProxy(
                mbeans, "java.nio:type=BufferPool,name=direct", BufferPoolMXBean.class);
        this.heapPools = ManagementFactory.getPlatformMXBeans(mbeans, MemoryPoolMXBean.class).stream()
                .filter(pool -> pool.getType() == MemoryType.HEAP)
                .toList();
        this.diagnostics = new ObjectName("com.sun.management:type=DiagnosticCommand");
    }

    /** Attaches to the JVM with process id {@code pid} (same user) and connects to its JMX agent. */
    static ServerMemory attach(long pid) {
        try {
            VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
            String address;
            try {
                address = vm.startLocalManagementAgent();
            } finally {
                vm.detach();
            }
            return new ServerMemory(JMXConnectorFactory.connect(new JMXServiceURL(address)));
        } catch (AttachNotSupportedException | JMException e) {
            throw new AssertionError("cannot attach to the server JVM " + pid, e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot attach to the server JVM " + pid, e);
        }
    }

    long heapUsedBytes() {
        return memory.getHeapMemoryUsage().getUsed();
    }

    /**
     * Heap used right after the most recent collection of each heap pool, summed: the live heap as
     * the collector last found it, without the garbage that {@link #heapUsedBytes()} includes.
     */
    long heapAfterLastGcBytes() {
        long sum = 0;
        for (MemoryPoolMXBean pool : heapPools) {
            MemoryUsage usage = pool.getCollectionUsage();
            if (usage != null) {
                sum += usage.getUsed();
            }
        }
        return sum;
    }

    long nioDirectBytes() {
        return directPool.getMemoryUsed();
    }

    /** Committed native memory of NMT's category "Other" (direct buffers of either kind). */
    long nativeOtherBytes() {
        String summary;
        try {
            summary = (String) mbeans.invoke(
                    diagnostics, "vmNativeMemory", new Object[] {new String[] {"summary", "scale=KB"}}, new String[] {
                        String[].class.getName()
                    });
        } catch (JMException e) {
            throw new AssertionError("VM.native_memory failed", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Matcher m = NMT_OTHER.matcher(summary);
        if (!m.find()) {
            throw new AssertionError(
                    "no category Other in the NMT summary (started with " + JVM_OPTIONS + "?):\n" + summary);
        }
        return Long.parseLong(m.group(2)) * 1024;
    }

    /** Runs a full collection in the server and returns the heap still used: what it retains. */
    long heapAfterGcBytes() {
        memory.gc();
        return heapUsedBytes();
    }

    @Override
    public void close() {
        try {
            connector.close();
        } catch (IOException e) {
            // The server may already be gone; nothing is left to release on our side.
        }
    }
}
