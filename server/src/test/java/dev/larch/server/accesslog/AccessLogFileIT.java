package dev.larch.server.accesslog;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPSearchException;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.config.LarchConfig;
import dev.larch.config.Logging;
import dev.larch.server.testing.TestServer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code logging.access-log-file} and {@code -format}: what a real server writes there, and rotation. */
class AccessLogFileIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private TestServer start(String format, Path file, long maxFileSize) throws Exception {
        return start(format, file, maxFileSize, c -> c);
    }

    private TestServer start(String format, Path file, long maxFileSize, UnaryOperator<LarchConfig.Builder> more)
            throws Exception {
        Files.createDirectories(dir.resolve("data"));
        return TestServer.start(
                dir.resolve("data"),
                c -> more.apply(TestServer.withAccessLog(c)
                        .set("logging.access-log-format", format)
                        .set("logging.access-log-file", file)
                        .set("logging.access-log-max-file-size", maxFileSize)));
    }

    @Test
    void jsonLinesInTheFileAreOneValidObjectEachWhateverTheClientSent() throws Exception {
        Path file = dir.resolve("logs/access.log");
        // A base DN with a quote and an escaped backslash, a filter value with control characters,
        // a quote, a backslash and non-ASCII text.
        String base = "cn=a\\\"b\\\\c,dc=example,dc=com";
        String value = "q\"b\\s\u0001\t\n é 日本";
        try (TestServer server =
                start(Logging.JSON, file, LarchConfig.defaults().logging().accessLogMaxFileSize())) {
            server.add(TestServer.BASE_LDIF);
            try (LDAPConnection c = server.admin()) {
                c.search("dc=example,dc=com", SearchScope.SUB, Filter.createEqualityFilter("cn", value), "cn", "mail");
                try {
                    c.search(base, SearchScope.BASE, "(objectClass=*)");
                } catch (LDAPSearchException expected) {
                    assertEquals(32, expected.getResultCode().intValue());
                }
            }
            // The unbind is read after the client's close returned: wait for it before stopping.
            Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> {
                String text = Files.readString(file, StandardCharsets.UTF_8);
                return text.split("\"type\":\"CLOSE\"", -1).length == text.split("\"type\":\"CONNECT\"", -1).length;
            });
        }
        List<JsonNode> all = Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                .map(AccessLogFileIT::parse)
                .toList();
        // The connection that searched is the last one opened.
        long last = all.stream()
                .filter(n -> n.get("type").asText().equals("CONNECT"))
                .mapToLong(n -> n.get("conn").asLong())
                .max()
                .orElseThrow();
        List<JsonNode> lines =
                all.stream().filter(n -> n.get("conn").asLong() == last).toList();
        List<String> types = lines.stream().map(n -> n.get("type").asText()).toList();
        assertEquals(List.of("CONNECT", "BIND", "SEARCH", "SEARCH", "UNBIND", "CLOSE"), types);
        long conn = lines.get(0).get("conn").asLong();
        assertTrue(lines.stream().allMatch(n -> n.get("conn").asLong() == conn));
        assertTrue(lines.get(0).get("client").asText().startsWith("127.0.0.1:"));
        JsonNode bind = lines.get(1);
        assertEquals(TestServer.ADMIN_DN, bind.get("dn").asText());
        assertEquals(0, bind.get("result").asInt());
        JsonNode search = lines.get(2);
        assertEquals(2, search.get("op").asInt());
        assertEquals("sub", search.get("scope").asText());
        assertEquals("[\"cn\",\"mail\"]", search.get("attrs").toString());
        assertEquals(0, search.get("entries").asInt());
        assertEquals(0, search.get("result").asInt());
        // The filter as the LDAP API renders it (RFC 4515 escapes), read back intact through JSON.
        assertTrue(search.get("filter").asText().startsWith("(cn="), search.toString());
        JsonNode missing = lines.get(3);
        assertEquals(base, missing.get("base").asText());
        assertEquals(32, missing.get("result").asInt());
        assertFalse(missing.get("text").asText().isEmpty());
    }

    @Test
    void textLinesInTheFileKeepTheirFormatAndTheFileRollsOverAtItsSize() throws Exception {
        Path file = dir.resolve("access.log");
        try (TestServer server = start(Logging.TEXT, file, 1024)) {
            server.add(TestServer.BASE_LDIF);
            try (LDAPConnection c = server.admin()) {
                c.search("dc=example,dc=com", SearchScope.BASE, "(objectClass=*)");
                // Written by the access log's own thread: there once it has caught up.
                Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> Files.size(file) > 0);
                String first = Files.readAllLines(file).get(0);
                assertTrue(
                        first.matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3} INFO  access - conn=\\d+ open"
                                + " from=127\\.0\\.0\\.1:\\d+"),
                        first);
                searchUntil(c, () -> !rolled(file).isEmpty());
            }
        }
        assertTrue(Files.readString(file).contains(" SEARCH base=\"dc=example,dc=com\" scope=base"));
        // The file a roll-over started is created owner-only as the first one was.
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        // Rolled files are renamed, not compressed, by default: plain lines, still owner-only.
        Path first = rolled(file).get(0);
        assertFalse(first.toString().endsWith(".gz"), first.toString());
        assertTrue(Files.readString(first).contains(" INFO  access - conn="), first.toString());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(first)));
    }

    @Test
    void rolledFilesAreGzippedWhenCompressIsOn() throws Exception {
        Path file = dir.resolve("access.log");
        try (TestServer server = start(Logging.TEXT, file, 1024, c -> c.set("logging.access-log-compress", true))) {
            server.add(TestServer.BASE_LDIF);
            try (LDAPConnection c = server.admin()) {
                // Compressed on logback's own thread after the roll-over: wait for the .gz.
                searchUntil(
                        c,
                        () -> rolled(file).stream().anyMatch(p -> p.toString().endsWith(".gz")));
            }
        }
        Path gz = rolled(file).stream()
                .filter(p -> p.toString().endsWith(".gz"))
                .findFirst()
                .orElseThrow();
        try (InputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(text.contains(" INFO  access - conn="), text);
        }
    }

    @Test
    void rolledFilesAreDeletedOldestFirstPastTheTotalSize() throws Exception {
        Path file = dir.resolve("access.log");
        long cap = 4096;
        try (TestServer server =
                start(Logging.TEXT, file, 1024, c -> c.set("logging.access-log-max-total-size", cap))) {
            server.add(TestServer.BASE_LDIF);
            try (LDAPConnection c = server.admin()) {
                // Far more than the cap has rolled once index 12 exists (each file is at least 1 KiB);
                // the cap is applied after each roll-over, on logback's own thread.
                searchUntil(c, () -> rolledIndexes(file).contains(12));
                Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> {
                    long total = 0;
                    for (Path p : rolled(file)) {
                        total += Files.size(p);
                    }
                    return total <= cap && !rolledIndexes(file).contains(0);
                });
            }
        }
    }

    /** Searches on {@code c} until {@code done}: the size is checked at most every few milliseconds. */
    private static void searchUntil(LDAPConnection c, Callable<Boolean> done) {
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> {
            c.search("dc=example,dc=com", SearchScope.BASE, "(objectClass=*)");
            return done.call();
        });
    }

    /** The rolled-over files beside {@code file}, oldest index first. */
    private static List<Path> rolled(Path file) throws IOException {
        try (Stream<Path> files = Files.list(file.getParent())) {
            return files.filter(p -> ROLLED.matcher(p.getFileName().toString()).matches())
                    .sorted(Comparator.comparingInt(AccessLogFileIT::rolledIndex))
                    .toList();
        }
    }

    private static List<Integer> rolledIndexes(Path file) throws IOException {
        return rolled(file).stream().map(AccessLogFileIT::rolledIndex).toList();
    }

    private static int rolledIndex(Path rolled) {
        Matcher m = ROLLED.matcher(rolled.getFileName().toString());
        if (!m.matches()) {
            throw new IllegalArgumentException(rolled.toString());
        }
        return Integer.parseInt(m.group(1));
    }

    private static final Pattern ROLLED = Pattern.compile("access\\.log\\.\\d{4}-\\d\\d-\\d\\d\\.(\\d+)(\\.gz)?");

    private static JsonNode parse(String line) {
        try {
            return JSON.readTree(line);
        } catch (Exception e) {
            throw new AssertionError("not one JSON object: " + line, e);
        }
    }
}
