package dev.larch.e2e;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.SearchResultEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link #CONNECTIONS} idle connections held open at once ({@code -Dlarch.idle.connections}, 10,000
 * by default), with {@code listen.max-connections} and the per-address limit raised above them, while
 * fresh clients connect and look an entry up. Both JVMs need more open files than that: HotSpot raises
 * its soft {@code ulimit -n} to the hard limit at start ({@code -XX:+MaxFDLimit}, the default), and
 * the test checks the limits each JVM really runs with before it starts.
 */
class ManyIdleConnectionsIT {
    static final int CONNECTIONS = Integer.getInteger("larch.idle.connections", 10_000);
    static final GeneratedTree TREE = new GeneratedTree(200, 2);
    static final int FRESH_CLIENTS = 20;
    /** File descriptors a JVM needs beyond the connections (jars, LMDB, pipes, epoll). */
    static final int SPARE_FILES = 500;

    @TempDir
    Path dir;

    @Test
    void tenThousandIdleConnectionsAreHeldWhileFreshClientsAreAnswered() throws Exception {
        List<String> config = List.of(
                "listen.max-connections = " + (CONNECTIONS + 100),
                "listen.max-connections-per-address = " + (CONNECTIONS + 100),
                "logging.access-log = false");
        try (AbuseServer server = AbuseServer.start(dir, TREE, config)) {
            long pid = server.process().pid();
            assertTrue(openFilesLimit("self") >= CONNECTIONS + SPARE_FILES, "the test JVM's ulimit -n is too low");
            assertTrue(
                    openFilesLimit(Long.toString(pid)) >= CONNECTIONS + SPARE_FILES,
                    "the server's ulimit -n is too low");
            new AbuseChecks(server, TREE).warmUp();
            List<SocketChannel> idle = new ArrayList<>(CONNECTIONS);
            MemoryPeaks peaks = MemoryPeaks.start(server.memory());
            try {
                long baseline = openFiles(pid);
                long start = System.nanoTime();
                InetSocketAddress address = new InetSocketAddress("127.0.0.1", server.port());
                for (int i = 0; i < CONNECTIONS; i++) {
                    idle.add(SocketChannel.open(address));
                }
                long serverFiles = awaitOpenFiles(pid, baseline + CONNECTIONS);
                Duration setUp = Duration.ofNanos(System.nanoTime() - start);
                long[] latencies = new long[FRESH_CLIENTS];
                for (int i = 0; i < FRESH_CLIENTS; i++) {
                    long begin = System.nanoTime();
                    try (LDAPConnection c = new LDAPConnection("127.0.0.1", server.port())) {
                        SearchResultEntry entry = c.getEntry(TREE.personDn(i), "uid");
                        latencies[i] = System.nanoTime() - begin;
                        assertNotNull(entry, TREE.personDn(i));
                        assertEquals(GeneratedTree.uid(i), entry.getAttributeValue("uid"));
                    }
                }
                for (SocketChannel channel : idle) {
                    assertTrue(channel.isConnected(), "an idle connection was closed");
                }
                // The sampler's last sample, with every connection still open.
                peaks.close();
                Arrays.sort(latencies);
                long worst = latencies[FRESH_CLIENTS - 1];
                AbuseReport.record(
                        "idle connections",
                        String.format(
                                Locale.ROOT,
                                "%d idle connections held (server has %d files open; opened in %.1f s); %d fresh"
                                        + " clients connect and look up: median %.1f ms, worst %.1f ms; server: %s",
                                CONNECTIONS,
                                serverFiles,
                                setUp.toNanos() / 1e9,
                                FRESH_CLIENTS,
                                latencies[FRESH_CLIENTS / 2] / 1e6,
                                worst / 1e6,
                                peaks));
                assertTrue(
                        worst <= AbuseChecks.LATENCY_BOUND.toNanos(),
                        "a fresh client waited " + worst / 1_000_000 + " ms");
            } finally {
                peaks.close();
                for (SocketChannel channel : idle) {
                    channel.close();
                }
            }
        }
    }

    /** The soft "Max open files" limit of process {@code pid} ("self" for this JVM). */
    private static long openFilesLimit(String pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", pid, "limits"), StandardCharsets.UTF_8)) {
            if (line.startsWith("Max open files")) {
                return Long.parseLong(
                        line.substring("Max open files".length()).trim().split("\\s+")[0]);
            }
        }
        throw new AssertionError("no open-files limit in /proc/" + pid + "/limits");
    }

    private static long openFiles(long pid) throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return fds.count();
        }
    }

    /** Waits until the server has at least {@code files} files open: the connections are accepted. */
    private static long awaitOpenFiles(long pid, long atLeast) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            long files = openFiles(pid);
            if (files >= atLeast) {
                return files;
            }
            assertTrue(System.nanoTime() < deadline, "the server holds only " + files + " files");
            Thread.sleep(100);
        }
    }
}
