package dev.larch.server.tracing;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import com.unboundid.ldap.sdk.CompareResult;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.config.LarchConfig;
import dev.larch.config.Tracing;
import dev.larch.server.LarchServer;
import dev.larch.server.testing.TestServer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A real server with tracing exporting to memory, driven with the UnboundID SDK. */
class OperationTracingIT {
    private static final Tracing ON = tracingOn(LarchConfig.builder()).build().tracing();

    private static LarchConfig.Builder tracingOn(LarchConfig.Builder b) {
        return b.set("tracing.otlp-endpoint", "http://127.0.0.1:4318")
                .set("tracing.service-name", "larch-test")
                .set("tracing.max-queue-size", 64);
    }

    @TempDir
    Path dir;

    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    private OperationTracing tracing;
    private LarchServer server;

    @BeforeEach
    void start() throws Exception {
        LarchConfig config = tracingOn(TestServer.settings(dir)).build();
        tracing = OperationTracing.exportingTo(exporter, ON);
        server = LarchServer.start(config, Map.of("LARCH_ADMIN_PASSWORD", TestServer.ADMIN_PASSWORD), tracing);
        try (LDAPConnection c = admin()) {
            for (var e : TestServer.parse(TestServer.BASE_LDIF)) {
                c.add(e);
            }
            c.add(
                    "dn: uid=jdoe,ou=people," + TestServer.SUFFIX,
                    "objectClass: inetOrgPerson",
                    "uid: jdoe",
                    "cn: J",
                    "sn: Doe",
                    "mail: jdoe@example.com");
        }
        tracing.flush(10);
        exporter.reset();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private LDAPConnection admin() throws LDAPException {
        return new LDAPConnection(
                "127.0.0.1", server.address().getPort(), TestServer.ADMIN_DN, TestServer.ADMIN_PASSWORD);
    }

    private List<SpanData> spans() {
        tracing.flush(10);
        return exporter.getFinishedSpanItems();
    }

    private SpanData only(String operation) {
        List<SpanData> matching = spans().stream()
                .filter(s -> operation.equals(s.getAttributes().get(TracingHandler.OPERATION)))
                .toList();
        assertEquals(1, matching.size(), matching.toString());
        return matching.get(0);
    }

    @Test
    void aSearchSpanCarriesTheOperationItsPlanEntriesAndResult() throws Exception {
        try (LDAPConnection c = admin()) {
            SearchResult result = c.search(
                    "ou=people," + TestServer.SUFFIX, SearchScope.SUB, "(&(uid=jdoe)(userPassword=guess))", "cn");
            assertEquals(0, result.getEntryCount());
            c.search("ou=people," + TestServer.SUFFIX, SearchScope.SUB, "(uid=jdoe)", "cn");
        }
        List<SpanData> searches = spans().stream()
                .filter(s -> "SEARCH".equals(s.getAttributes().get(TracingHandler.OPERATION)))
                .toList();
        assertEquals(2, searches.size());
        SpanData masked = searches.get(0);
        assertEquals("(&(uid=jdoe)(userPassword=***))", masked.getAttributes().get(TracingHandler.FILTER));
        SpanData found = searches.get(1);
        assertEquals("ldap SEARCH", found.getName());
        assertEquals(SpanKind.SERVER, found.getKind());
        assertEquals("ou=people," + TestServer.SUFFIX, found.getAttributes().get(TracingHandler.DN));
        assertEquals("sub", found.getAttributes().get(TracingHandler.SCOPE));
        assertEquals("(uid=jdoe)", found.getAttributes().get(TracingHandler.FILTER));
        assertEquals("eq(uid)", found.getAttributes().get(TracingHandler.PLAN));
        assertEquals(1L, found.getAttributes().get(TracingHandler.ENTRIES));
        assertEquals(0L, found.getAttributes().get(TracingHandler.RESULT_CODE));
        assertEquals(3L, found.getAttributes().get(TracingHandler.MESSAGE_ID));
        assertEquals(
                masked.getAttributes().get(TracingHandler.CONNECTION),
                found.getAttributes().get(TracingHandler.CONNECTION));
        assertEquals("127.0.0.1", found.getAttributes().get(TracingHandler.CLIENT_ADDRESS));
        assertEquals(StatusCode.UNSET, found.getStatus().getStatusCode());
        assertTrue(found.getEndEpochNanos() >= found.getStartEpochNanos());
        assertEquals("larch-test", found.getResource().getAttribute(AttributeKey.stringKey("service.name")));
    }

    @Test
    void failuresAreErrorsButCompareAnswersAndSizeLimitsAreNot() throws Exception {
        try (LDAPConnection c = admin()) {
            CompareResult no = c.compare("uid=jdoe,ou=people," + TestServer.SUFFIX, "sn", "Smith");
            assertFalse(no.compareMatched());
            SearchRequest limited = new SearchRequest(TestServer.SUFFIX, SearchScope.SUB, "(objectClass=*)");
            limited.setSizeLimit(1);
            LDAPException sizeLimit = assertThrows(LDAPException.class, () -> c.search(limited));
            assertEquals(ResultCode.SIZE_LIMIT_EXCEEDED, sizeLimit.getResultCode());
            LDAPException missing =
                    assertThrows(LDAPException.class, () -> c.delete("uid=nobody," + TestServer.SUFFIX));
            assertEquals(ResultCode.NO_SUCH_OBJECT, missing.getResultCode());
        }
        SpanData compare = only("COMPARE");
        assertEquals(5L, compare.getAttributes().get(TracingHandler.RESULT_CODE));
        assertEquals(StatusCode.UNSET, compare.getStatus().getStatusCode());
        SpanData search = only("SEARCH");
        assertEquals(4L, search.getAttributes().get(TracingHandler.RESULT_CODE));
        assertEquals(1L, search.getAttributes().get(TracingHandler.ENTRIES));
        assertEquals(StatusCode.UNSET, search.getStatus().getStatusCode());
        // A subtree search under the suffix plans (a base search does not): the plan is reported.
        assertNotNull(search.getAttributes().get(TracingHandler.PLAN));
        SpanData delete = only("DELETE");
        assertEquals(32L, delete.getAttributes().get(TracingHandler.RESULT_CODE));
        assertEquals(StatusCode.ERROR, delete.getStatus().getStatusCode());
        assertTrue(
                delete.getStatus().getDescription().startsWith("result 32"),
                delete.getStatus().getDescription());
        SpanData bind = only("BIND");
        assertEquals(TestServer.ADMIN_DN, bind.getAttributes().get(TracingHandler.DN));
        assertNull(bind.getAttributes().get(TracingHandler.ENTRIES));
    }

    @Test
    void noEndpointMeansNoTracingAtAll() {
        assertNull(OperationTracing.open(LarchConfig.defaults().tracing()));
    }
}
