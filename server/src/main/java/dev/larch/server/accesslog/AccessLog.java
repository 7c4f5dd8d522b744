package dev.larch.server.accesslog;

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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The access log's text lines ({@code logging.access-log-format = text}), one INFO line per completed
 * operation and per connection event, written to the SLF4J logger {@link AccessLoggingHandler#LOGGER_NAME}:
 *
 * <pre>
 * conn=7 open from=127.0.0.1:50312
 * conn=7 TLS protocol=TLSv1.3 cipher=TLS_AES_256_GCM_SHA384 client="CN=jdoe,O=Example"
 * conn=7 op=1 BIND dn="cn=admin,dc=example,dc=com" method=simple result=0 etime=0.412
 * conn=7 op=2 SEARCH base="dc=example,dc=com" scope=sub filter="(uid=jdoe)" result=0 entries=1 etime=0.230
 * conn=7 op=3 ABANDON id=2
 * conn=7 op=4 COMPARE dn="uid=jdoe,ou=people,dc=example,dc=com" attr=mail result=51 text="rate limit of ..." etime=0.004
 * conn=7 op=0 DISCONNECT result=2 text="PDU exceeds the maximum size of 1024 bytes"
 * conn=7 closed
 * </pre>
 *
 * Quoted values escape {@code "}, {@code \} and control characters, so a line cannot be forged.
 * Assertion values on password attributes are never written: filters show them as {@code ***}
 * ({@link MaskedFilter}), and a compare names only its attribute.
 * Thread-safe.
 */
final class AccessLog implements AccessLines {

    /** The one instance: the text format keeps no state. */
    static final AccessLog TEXT = new AccessLog();

    static final Logger LOG = LoggerFactory.getLogger(AccessLoggingHandler.LOGGER_NAME);
    /** Longer quoted values are cut there and end with {@code ...}. */
    static final int MAX_VALUE_CHARS = 2048;

    private AccessLog() {}

    static boolean on() {
        return LOG.isInfoEnabled();
    }

    @Override
    public void opened(Session session) {
        if (on()) {
            LOG.info("conn={} open from={}", session.id(), session.remoteAddressText());
        }
    }

    /** After the handshake: LDAPS connections right after their open line, StartTLS ones after its op line. */
    @Override
    public void tls(Session session, TlsState tls) {
        if (on()) {
            StringBuilder line = new StringBuilder("conn=").append(session.id());
            line.append(" TLS protocol=")
                    .append(tls.protocol())
                    .append(" cipher=")
                    .append(tls.cipherSuite());
            if (tls.clientCertificate() != null) {
                line.append(" client=");
                quote(line, tls.clientCertificate().getSubjectX500Principal().getName());
            }
            LOG.info(line.toString());
        }
    }

    @Override
    public void closed(Session session) {
        if (on()) {
            LOG.info("conn={} closed", session.id());
        }
    }

    /** A final response sent (or, with {@code response} null, an operation abandoned). */
    @Override
    public void completed(
            Session session,
            Message request,
            ResultResponse response,
            int entries,
            long startNanos,
            PasswordAttributes passwords) {
        if (on()) {
            LOG.info(completedLine(session, request, response, entries, startNanos, passwords));
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
        StringBuilder line = prefix(session, request.getMessageId());
        describe(line, request, passwords);
        if (response == null) {
            line.append(" result=abandoned");
        } else {
            line.append(" result=").append(WireResultCode.seen(response));
            reason(line, response);
        }
        if (request instanceof SearchRequest) {
            line.append(" entries=").append(entries);
        }
        etime(line, startNanos);
        return line.toString();
    }

    /** The diagnostic message of a failed operation, which says why (busy for its rate, a limit hit). */
    private static void reason(StringBuilder line, ResultResponse response) {
        String message = response.getLdapResult().getDiagnosticMessage();
        if (response.getLdapResult().getResultCode() != ResultCodeEnum.SUCCESS
                && message != null
                && !message.isEmpty()) {
            line.append(" text=");
            quote(line, message);
        }
    }

    /** A request the decoder refused and answered itself; only the response is known. */
    @Override
    public void refused(Session session, ResultResponse response, long startNanos) {
        if (!on()) {
            return;
        }
        StringBuilder line = prefix(session, response.getMessageId());
        line.append(operationOf(response));
        line.append(" result=").append(response.getLdapResult().getResultCode().getResultCode());
        etime(line, startNanos);
        LOG.info(line.toString());
    }

    @Override
    public void abandon(Session session, AbandonRequest request) {
        if (on()) {
            LOG.info("conn={} op={} ABANDON id={}", session.id(), request.getMessageId(), request.getAbandoned());
        }
    }

    @Override
    public void unbind(Session session, Message request) {
        if (on()) {
            LOG.info("conn={} op={} UNBIND", session.id(), request.getMessageId());
        }
    }

    @Override
    public void disconnect(Session session, ResultResponse notice) {
        if (!on()) {
            return;
        }
        StringBuilder line = prefix(session, 0)
                .append("DISCONNECT result=")
                .append(notice.getLdapResult().getResultCode().getResultCode())
                .append(" text=");
        quote(line, notice.getLdapResult().getDiagnosticMessage());
        LOG.info(line.toString());
    }

    private static StringBuilder prefix(Session session, int messageId) {
        return KeptBuilders.line()
                .append("conn=")
                .append(session.id())
                .append(" op=")
                .append(messageId)
                .append(' ');
    }

    private static void describe(StringBuilder line, Message request, PasswordAttributes passwords) {
        switch (request) {
            case SearchRequest r -> {
                line.append("SEARCH base=");
                quote(line, r.getBase() == null ? "" : r.getBase().getName());
                line.append(" scope=").append(OperationName.scope(r.getScope())).append(" filter=");
                StringBuilder filter = KeptBuilders.filter();
                if (r.getFilter() != null) {
                    MaskedFilter.render(r.getFilter(), passwords, filter);
                }
                quote(line, filter);
            }
            case BindRequest r -> {
                line.append("BIND dn=");
                quote(line, r.getName());
                line.append(r.isSimple() ? " method=simple" : " method=sasl mech=" + safe(r.getSaslMechanism()));
            }
            case AddRequest r -> dn(line, "ADD", r.getEntryDn());
            case DeleteRequest r -> dn(line, "DELETE", r.getName());
            case ModifyRequest r -> dn(line, "MODIFY", r.getName());
            case ModifyDnRequest r -> {
                dn(line, "MODDN", r.getName());
                line.append(" newrdn=");
                quote(line, r.getNewRdn() == null ? "" : r.getNewRdn().getName());
                if (r.getNewSuperior() != null) {
                    line.append(" newsuperior=");
                    quote(line, r.getNewSuperior().getName());
                }
            }
            case CompareRequest r -> {
                dn(line, "COMPARE", r.getName());
                line.append(" attr=").append(safe(r.getAttributeId()));
            }
            case ExtendedRequest r -> line.append("EXTENDED oid=").append(safe(r.getRequestName()));
            default -> line.append(request.getType());
        }
    }

    private static void dn(StringBuilder line, String operation, Object dn) {
        line.append(operation).append(" dn=");
        quote(line, dn == null ? "" : dn.toString());
    }

    static String operationOf(ResultResponse response) {
        return switch (response.getType()) {
            case BIND_RESPONSE -> "BIND";
            case SEARCH_RESULT_DONE -> "SEARCH";
            case ADD_RESPONSE -> "ADD";
            case DEL_RESPONSE -> "DELETE";
            case MODIFY_RESPONSE -> "MODIFY";
            case MODIFYDN_RESPONSE -> "MODDN";
            case COMPARE_RESPONSE -> "COMPARE";
            case EXTENDED_RESPONSE -> "EXTENDED";
            default -> response.getType().name();
        };
    }

    private static void etime(StringBuilder line, long startNanos) {
        long micros = Math.max(0, (System.nanoTime() - startNanos) / 1_000);
        long fraction = micros % 1_000;
        line.append(" etime=").append(micros / 1_000).append('.');
        if (fraction < 100) {
            line.append('0');
        }
        if (fraction < 10) {
            line.append('0');
        }
        line.append(fraction);
    }

    /** Appends {@code value} in double quotes, escaped and capped in length. */
    static void quote(StringBuilder line, CharSequence value) {
        line.append('"');
        CharSequence v = value == null ? "" : value;
        int n = Math.min(v.length(), MAX_VALUE_CHARS);
        // Most values need no escape: copied whole, not a character at a time.
        int clean = 0;
        while (clean < n && !needsEscape(v.charAt(clean))) {
            clean++;
        }
        line.append(v, 0, clean);
        for (int i = clean; i < n; i++) {
            char c = v.charAt(i);
            if (c == '"' || c == '\\') {
                line.append('\\').append(c);
            } else if (c < 0x20 || c == 0x7F) {
                line.append("\\x").append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 0xF, 16));
            } else {
                line.append(c);
            }
        }
        if (v.length() > n) {
            line.append("...");
        }
        line.append('"');
    }

    private static boolean needsEscape(char c) {
        return c == '"' || c == '\\' || c < 0x20 || c == 0x7F;
    }

    /** An unquoted token (OID, mechanism, attribute name): anything but printable non-space is dropped. */
    private static String safe(String token) {
        if (token == null) {
            return "-";
        }
        StringBuilder out = new StringBuilder(Math.min(token.length(), 128));
        for (int i = 0; i < token.length() && out.length() < 128; i++) {
            char c = token.charAt(i);
            if (c > 0x20 && c < 0x7F && c != '"') {
                out.append(c);
            }
        }
        return out.isEmpty() ? "-" : out.toString();
    }
}
