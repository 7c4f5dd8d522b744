package dev.larch.server.accesslog;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.server.testing.TestServer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real server's access log, written off the request path: the lines of what clients did arrive
 * in order without a stop, every one of them is there after the stop, and a burst of parallel
 * clients through a queue far smaller than the burst loses none.
 */
class AccessLogOutputIT {
    private static final Pattern SEARCH = Pattern.compile("conn=(\\d+) op=(\\d+) SEARCH .*filter=\"\\(uid=(\\S+)\\)\"");

    @TempDir
    Path dir;

    private TestServer start(Path file, int queueLines) throws Exception {
        Files.createDirectories(dir.resolve("data"));
        TestServer server = TestServer.start(
                dir.resolve("data"),
                c -> TestServer.withAccessLog(c)
                        .set("logging.access-log-file", file)
                        .set("logging.access-log-queue-lines", queueLines));
        server.add(TestServer.BASE_LDIF);
        return server;
    }

    @Test
    void linesArriveInOrderWhileTheServerRunsAndAllOfThemByItsStop() throws Exception {
        Path file = dir.resolve("access.log");
        long conn;
        try (TestServer server = start(file, 4096)) {
            try (LDAPConnection c = server.admin()) {
                for (int i = 0; i < 50; i++) {
                    c.search(TestServer.SUFFIX, SearchScope.SUB, "(uid=u" + i + ")");
                }
                // No stop, no more traffic: the writer flushed when it had caught up.
                Awaitility.await()
                        .atMost(Duration.ofMinutes(2))
                        .until(() -> Files.readString(file).contains("(uid=u49)"));
                List<Matcher> searches = searches(Files.readAllLines(file));
                assertEquals(50, searches.size());
                conn = Long.parseLong(searches.get(0).group(1));
                for (int i = 0; i < 50; i++) {
                    assertEquals("u" + i, searches.get(i).group(3));
                    assertEquals(i + 2, Integer.parseInt(searches.get(i).group(2)), "after the bind, in order");
                }
            }
        }
        // The stop wrote the lines still queued, the connection's close the last of them.
        List<String> lines = Files.readAllLines(file);
        String last = lines.stream()
                .filter(l -> l.contains("conn=" + conn + " "))
                .reduce((a, b) -> b)
                .orElseThrow();
        assertTrue(last.endsWith("access - conn=" + conn + " closed"), last);
    }

    @Test
    void aBurstOfParallelClientsThroughASmallQueueLosesNoLine() throws Exception {
        Path file = dir.resolve("burst.log");
        int clients = 8;
        int each = 300;
        try (TestServer server = start(file, 16)) {
            ExecutorService pool = Executors.newFixedThreadPool(clients);
            try {
                CountDownLatch go = new CountDownLatch(1);
                List<Future<Void>> done = new ArrayList<>();
                for (int k = 0; k < clients; k++) {
                    String client = "c" + k + "-";
                    Callable<Void> searches = () -> {
                        try (LDAPConnection c = server.admin()) {
                            go.await();
                            for (int i = 0; i < each; i++) {
                                c.search(TestServer.SUFFIX, SearchScope.BASE, "(uid=" + client + i + ")");
                            }
                        }
                        return null;
                    };
                    done.add(pool.submit(searches));
                }
                go.countDown();
                for (Future<Void> f : done) {
                    f.get();
                }
            } finally {
                pool.shutdown();
            }
        }
        Map<String, List<Matcher>> byClient = searches(Files.readAllLines(file)).stream()
                .collect(Collectors.groupingBy(
                        m -> m.group(3).substring(0, m.group(3).indexOf('-'))));
        assertEquals(clients, byClient.size());
        for (List<Matcher> lines : byClient.values()) {
            assertEquals(each, lines.size());
            for (int i = 0; i < each; i++) {
                assertTrue(lines.get(i).group(3).endsWith("-" + i), "each client's searches in order");
                assertEquals(i + 2, Integer.parseInt(lines.get(i).group(2)));
            }
        }
    }

    private static List<Matcher> searches(List<String> lines) {
        return lines.stream().map(SEARCH::matcher).filter(Matcher::find).toList();
    }
}
