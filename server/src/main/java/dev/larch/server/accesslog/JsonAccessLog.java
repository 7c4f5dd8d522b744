package dev.larch.server.accesslog;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.larch.server.auth.PasswordAttributes;
import dev.larch.server.protocol.OperationName;
import dev.larch.server.protocol.Session;
import dev.larch.server.protocol.TlsState;
import dev.larch.server.protocol.WireResultCode;
import org.apache.directory.api.ldap.model.message.AbandonRequest;
import org.apache.directory.api.ldap.model.message.AddRequest;
import org.apache.directory.api.ldap.model.message.BindRequest;
import org.apache.directory.api.ldap.model.message.CompareRequest;
import org.apache.directory.api.ldap.model.message.DeleteRequest;
import org.apache.directory.api.ldap.model.message.ExtendedRequest;
import org.apache.directory.api.ldap.model.message.Message;
import org.apache.directory.api.ldap.model.message.ModifyDnRequest;
import org.apache.directory.api.ldap.model.message.ModifyRequest;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.message.SearchRequest;

/**
 * The access log as JSON lines ({@code logging.access-log-format = json}): the same events as
 * {@link AccessLog}, each one JSON object on one line, written by Jackson's generator (so every
 * string is escaped as JSON requires, control characters included):
 *
 * <pre>
 * {"time":"2026-11-24T19:05:01.123Z","conn":7,"type":"CONNECT","client":"127.0.0.1:50312"}
 * {"time":"...","conn":7,"op":2,"type":"SEARCH","client":"127.0.0.1:50312","base":"dc=example,dc=com",
 *  "scope":"sub","filter":"(uid=jdoe)","attrs":["cn","mail"],"result":0,"entries":1,"etime_us":230}
 * {"time":"...","conn":7,"op":3,"type":"ABANDON","client":"...","id":2}
 * {"time":"...","conn":7,"op":0,"type":"DISCONNECT","client":"...","result":2,"text":"PDU exceeds ..."}
 * </pre>
 *
 * Fields: {@code time} (UTC, milliseconds), {@code conn}, {@code op} (message ID), {@code type}, {@code
 * client} on every line; per operation {@code dn} or {@code base}, {@code scope}, {@code filter}, {@code
 * attrs}, {@code method}, {@code mech}, {@code newrdn}, {@code newsuperior}, {@code attr}, {@code oid} as the
 * operation has them; {@code result} (the code the client saw) or {@code "abandoned":true}; {@code text}
 * (the diagnostic message of a failure); {@code entries} for searches; {@code etime_us}. String values
 * are cut at {@link AccessLog#MAX_VALUE_CHARS} characters (ending in {@code ...}); filters mask
 * password assertion values as the text format does. Thread-safe and stateless.
 */
final class JsonAccessLog implements AccessLines {

    static final JsonAccessLog JSON = new JsonAccessLog();

    /** Immutable once built; generators it creates are per line. */
    private static final JsonFactory FACTORY = JsonFactory.builder().build();

    /** Always three fraction digits, so every line's time has the same width. */
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern(
                    "uuuu-MM-dd'T'HH:mm:ss.SSS'Z'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    /** The last time written: lines within one millisecond share its text instead of formatting it again. */
    private record Stamp(long millis, String text) {}

    private static volatile Stamp lastStamp = new Stamp(Long.MIN_VALUE, "");

    private JsonAccessLog() {}

    @Override
    public void opened(Session session) {
        if (AccessLog.on()) {
            write(session, 0, "CONNECT", false, g -> {});
        }
    }

    @Override
    public void tls(Session session, TlsState tls) {
        if (AccessLog.on()) {
            write(session, 0, "TLS", false, g -> {
                string(g, "protocol", tls.protocol());
                string(g, "cipher", tls.cipherSuite());
                if (tls.clientCertificate() != null) {
                    string(
                            g,
                            "client_cert",
                            tls.clientCertificate().getSubjectX500Principal().getName());
                }
            });
        }
    }

    @Override
    public void closed(Session session) {
        if (AccessLog.on()) {
            write(session, 0, "CLOSE", false, g -> {});
        }
    }

    @Override
    public void completed(
            Session session,
            Message request,
            ResultResponse response,
            int entries,
            long startNanos,
            PasswordAttributes passwords) {
        if (AccessLog.on()) {
            AccessLog.LOG.info(completedLine(session, request, response, entries, startNanos, passwords));
        }
    }

    @Override
    public String completedLine(
            Session session,
            Message request,
            ResultResponse response,
            int entries,
            long startNanos,
            PasswordAttributes passwords) {
        return line(session, request.getMessageId(), OperationName.of(request), true, g -> {
            describe(g, request, passwords);
            if (response == null) {
                g.writeBooleanField("abandoned", true);
            } else {
                g.writeNumberField("result", WireResultCode.seen(response));
                reason(g, response);
            }
            if (request instanceof SearchRequest) {
                g.writeNumberField("entries", entries);
            }
            etime(g, startNanos);
        });
    }

    @Override
    public void refused(Session session, ResultResponse response, long startNanos) {
        if (AccessLog.on()) {
            write(session, response.getMessageId(), AccessLog.operationOf(response), true, g -> {
                g.writeNumberField(
                        "result", response.getLdapResult().getResultCode().getResultCode());
                etime(g, startNanos);
            });
        }
    }

    @Override
    public void abandon(Session session, AbandonRequest request) {
        if (AccessLog.on()) {
            write(
                    session,
                    request.getMessageId(),
                    "ABANDON",
                    true,
                    g -> g.writeNumberField("id", request.getAbandoned()));
        }
    }

    @Override
    public void unbind(Session session, Message request) {
        if (AccessLog.on()) {
            write(session, request.getMessageId(), "UNBIND", true, g -> {});
        }
    }

    @Override
    public void disconnect(Session session, ResultResponse notice) {
        if (AccessLog.on()) {
            write(session, 0, "DISCONNECT", true, g -> {
                g.writeNumberField(
                        "result", notice.getLdapResult().getResultCode().getResultCode());
                string(g, "text", notice.getLdapResult().getDiagnosticMessage());
            });
        }
    }

    /** The fields of one line after the common ones. */
    @FunctionalInterface
    private interface Fields {
        void write(JsonGenerator g) throws IOException;
    }

    private static void write(Session session, int messageId, String type, boolean withOp, Fields fields) {
        AccessLog.LOG.info(line(session, messageId, type, withOp, fields));
    }

    /**
     * One line's JSON text, generated into this thread's kept line builder ({@link KeptBuilders}) rather
     * than a new {@code StringWriter} each time; appending to a builder never fails, so neither does
     * the generator.
     */
    private static String line(Session session, int messageId, String type, boolean withOp, Fields fields) {
        StringBuilder text = KeptBuilders.line();
        try (JsonGenerator g = FACTORY.createGenerator(BuilderWriter.into(text))) {
            g.writeStartObject();
            g.writeStringField("time", now());
            g.writeNumberField("conn", session.id());
            if (withOp) {
                g.writeNumberField("op", messageId);
            }
            g.writeStringField("type", type);
            g.writeStringField("client", session.remoteAddressText());
            fields.write(g);
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return text.toString();
    }

    /** The current time, UTC, to the millisecond; racing threads at worst format it twice. */
    static String now() {
        long millis = System.currentTimeMillis();
        Stamp stamp = lastStamp;
        if (stamp.millis() != millis) {
            stamp = new Stamp(millis, TIME.format(Instant.ofEpochMilli(millis)));
            lastStamp = stamp;
        }
        return stamp.text();
    }

    private static void describe(JsonGenerator g, Message request, PasswordAttributes passwords) throws IOException {
        switch (request) {
            case SearchRequest r -> {
                string(g, "base", r.getBase() == null ? "" : r.getBase().getName());
                g.writeStringField("scope", OperationName.scope(r.getScope()));
                StringBuilder filter = KeptBuilders.filter();
                if (r.getFilter() != null) {
                    MaskedFilter.render(r.getFilter(), passwords, filter);
                }
                string(g, "filter", filter.toString());
                attributes(g, r.getAttributes());
            }
            case BindRequest r -> {
                string(g, "dn", r.getName());
                g.writeStringField("method", r.isSimple() ? "simple" : "sasl");
                if (!r.isSimple()) {
                    string(g, "mech", r.getSaslMechanism());
                }
            }
            case AddRequest r -> dn(g, r.getEntryDn());
            case DeleteRequest r -> dn(g, r.getName());
            case ModifyRequest r -> dn(g, r.getName());
            case ModifyDnRequest r -> {
                dn(g, r.getName());
                string(g, "newrdn", r.getNewRdn() == null ? "" : r.getNewRdn().getName());
                if (r.getNewSuperior() != null) {
                    string(g, "newsuperior", r.getNewSuperior().getName());
                }
            }
            case CompareRequest r -> {
                dn(g, r.getName());
                string(g, "attr", r.getAttributeId());
            }
            case ExtendedRequest r -> string(g, "oid", r.getRequestName());
            default -> {}
        }
    }

    /** The requested attributes, at most as many as fit the cap on one value's length. */
    private static void attributes(JsonGenerator g, List<String> attributes) throws IOException {
        if (attributes == null || attributes.isEmpty()) {
            return;
        }
        g.writeArrayFieldStart("attrs");
        int chars = 0;
        for (String attribute : attributes) {
            if (chars > AccessLog.MAX_VALUE_CHARS) {
                g.writeString("...");
                break;
            }
            String a = capped(attribute);
            chars += a.length();
            g.writeString(a);
        }
        g.writeEndArray();
    }

    private static void dn(JsonGenerator g, Object dn) throws IOException {
        string(g, "dn", dn == null ? "" : dn.toString());
    }

    private static void reason(JsonGenerator g, ResultResponse response) throws IOException {
        String message = response.getLdapResult().getDiagnosticMessage();
        if (response.getLdapResult().getResultCode() != ResultCodeEnum.SUCCESS
                && message != null
                && !message.isEmpty()) {
            string(g, "text", message);
        }
    }

    private static void etime(JsonGenerator g, long startNanos) throws IOException {
        g.writeNumberField("etime_us", Math.max(0, (System.nanoTime() - startNanos) / 1_000));
    }

    /** A string field, null written as empty, cut at the cap; the generator escapes it. */
    private static void string(JsonGenerator g, String name, String value) throws IOException {
        g.writeStringField(name, capped(value));
    }

    private static String capped(String value) {
        if (value == null) {
            return "";
        }
        return value.length() <= AccessLog.MAX_VALUE_CHARS
                ? value
                : value.substring(0, AccessLog.MAX_VALUE_CHARS) + "...";
    }
}
