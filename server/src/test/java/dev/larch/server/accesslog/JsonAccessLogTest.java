package dev.larch.server.accesslog;

import java.net.InetSocketAddress;
import java.time.Instant;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.larch.server.auth.PasswordAttributes;
import dev.larch.server.protocol.Session;
import org.apache.directory.api.ldap.model.filter.FilterParser;
import org.apache.directory.api.ldap.model.message.BindRequestImpl;
import org.apache.directory.api.ldap.model.message.BindResponseImpl;
import org.apache.directory.api.ldap.model.message.Message;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.message.SearchRequestImpl;
import org.apache.directory.api.ldap.model.message.SearchResultDoneImpl;
import org.apache.directory.api.ldap.model.message.SearchScope;
import org.apache.directory.api.ldap.model.name.Dn;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JsonAccessLogTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Session SESSION = new Session(7, new InetSocketAddress("127.0.0.1", 50312));

    private static SearchRequestImpl search() throws Exception {
        SearchRequestImpl search = new SearchRequestImpl();
        search.setMessageId(2);
        search.setBase(new Dn("dc=example,dc=com"));
        search.setScope(SearchScope.SUBTREE);
        search.setFilter(FilterParser.parse("(&(uid=jdoe)(userPassword=secret))"));
        search.addAttributes("cn", "mail");
        return search;
    }

    private static SearchResultDoneImpl done(ResultCodeEnum code, String message) {
        SearchResultDoneImpl done = new SearchResultDoneImpl(2);
        done.getLdapResult().setResultCode(code);
        done.getLdapResult().setDiagnosticMessage(message);
        return done;
    }

    private static JsonNode line(Message request, ResultResponse response, int entries) throws Exception {
        String line = AccessLogFormat.JSON.operationLine(
                SESSION, request, response, entries, System.nanoTime() - 1_234_000, PasswordAttributes.STANDARD);
        assertFalse(line.contains("\n"), line);
        return JSON.readTree(line);
    }

    @Test
    void aSearchLineHasTypedFieldsAndMasksPasswordValues() throws Exception {
        JsonNode n = line(search(), done(ResultCodeEnum.SUCCESS, null), 1);
        String time = n.get("time").asText();
        assertTrue(time.matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z"), time);
        assertTrue(Math.abs(Instant.parse(time).toEpochMilli() - System.currentTimeMillis()) < 60_000, time);
        assertTrue(n.get("conn").isIntegralNumber());
        assertEquals(7, n.get("conn").asLong());
        assertEquals(2, n.get("op").asInt());
        assertEquals("SEARCH", n.get("type").asText());
        assertEquals("127.0.0.1:50312", n.get("client").asText());
        assertEquals("dc=example,dc=com", n.get("base").asText());
        assertEquals("sub", n.get("scope").asText());
        assertEquals("(&(uid=jdoe)(userPassword=***))", n.get("filter").asText());
        assertEquals("[\"cn\",\"mail\"]", n.get("attrs").toString());
        assertTrue(n.get("result").isIntegralNumber());
        assertEquals(0, n.get("result").asInt());
        assertEquals(1, n.get("entries").asInt());
        assertTrue(n.get("etime_us").asLong() >= 1_234, n.toString());
        assertFalse(n.has("text"));
    }

    @Test
    void aFailureCarriesItsCodeAndMessageAndAnAbandonedOperationNoResult() throws Exception {
        JsonNode failed = line(search(), done(ResultCodeEnum.SIZE_LIMIT_EXCEEDED, "size limit of 1 \"entries\""), 1);
        assertEquals(4, failed.get("result").asInt());
        assertEquals("size limit of 1 \"entries\"", failed.get("text").asText());
        JsonNode abandoned = line(search(), null, 0);
        assertTrue(abandoned.get("abandoned").asBoolean());
        assertFalse(abandoned.has("result"));
    }

    @Test
    void anyValueIsEscapedSoTheLineIsValidJsonAndReadsBackUnchanged() throws Exception {
        String nasty = "cn=q\"uote\\back\u0000nul\u0001\n\r\t\u001f\u007f é 日本 \uD83D\uDE00 \u2028";
        BindRequestImpl bind = new BindRequestImpl();
        bind.setMessageId(1);
        bind.setName(nasty);
        bind.setSimple(true);
        BindResponseImpl response = new BindResponseImpl(1);
        response.getLdapResult().setResultCode(ResultCodeEnum.INVALID_CREDENTIALS);
        response.getLdapResult().setDiagnosticMessage("bad \"" + nasty);
        JsonNode n = line(bind, response, 0);
        assertEquals(nasty, n.get("dn").asText());
        assertEquals("simple", n.get("method").asText());
        assertEquals(49, n.get("result").asInt());
        assertEquals("bad \"" + nasty, n.get("text").asText());
        assertFalse(n.has("entries"));
    }

    @Test
    void longValuesAreCutLikeTheTextLines() throws Exception {
        BindRequestImpl bind = new BindRequestImpl();
        bind.setMessageId(1);
        bind.setName("cn=" + "x".repeat(5000));
        bind.setSimple(true);
        BindResponseImpl response = new BindResponseImpl(1);
        response.getLdapResult().setResultCode(ResultCodeEnum.SUCCESS);
        String dn = line(bind, response, 0).get("dn").asText();
        assertEquals(AccessLog.MAX_VALUE_CHARS + 3, dn.length());
        assertTrue(dn.endsWith("..."));
    }

    @Test
    void theTextFormatIsUnchanged() throws Exception {
        String line = AccessLogFormat.TEXT.operationLine(
                SESSION,
                search(),
                done(ResultCodeEnum.SUCCESS, null),
                1,
                System.nanoTime(),
                PasswordAttributes.STANDARD);
        assertTrue(
                line.matches("conn=7 op=2 SEARCH base=\"dc=example,dc=com\" scope=sub"
                        + " filter=\"\\(&\\(uid=jdoe\\)\\(userPassword=\\*\\*\\*\\)\\)\" result=0 entries=1"
                        + " etime=\\d+\\.\\d{3}"),
                line);
    }
}
