package dev.larch.server.tracing;

import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.larch.server.accesslog.MaskedFilter;
import dev.larch.server.auth.PasswordAttributes;
import dev.larch.server.protocol.ConnectionEvent;
import dev.larch.server.protocol.Operation;
import dev.larch.server.protocol.OperationName;
import dev.larch.server.protocol.RequestHandler;
import dev.larch.server.protocol.Session;
import dev.larch.server.protocol.WireResultCode;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import org.apache.directory.api.ldap.model.message.AddRequest;
import org.apache.directory.api.ldap.model.message.BindRequest;
import org.apache.directory.api.ldap.model.message.CompareRequest;
import org.apache.directory.api.ldap.model.message.DeleteRequest;
import org.apache.directory.api.ldap.model.message.ModifyDnRequest;
import org.apache.directory.api.ldap.model.message.ModifyRequest;
import org.apache.directory.api.ldap.model.message.Request;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.message.SearchRequest;

/**
 * Records one span per operation around a {@link RequestHandler}: started when the request was
 * decoded, ended when its final response went out (or it was abandoned). Attributes: {@code
 * larch.connection.id}, {@code ldap.message_id}, {@code ldap.operation}, {@code ldap.dn} (the entry, or
 * a search's base), {@code ldap.scope}, {@code ldap.filter} (password assertion values masked as in the
 * access log), {@code ldap.search.plan} (how the candidates were found, when the search planned),
 * {@code ldap.entries}, {@code ldap.result_code} (the code the client saw), {@code ldap.abandoned},
 * {@code client.address} and {@code client.port}. A result code other than those that mean the
 * operation did what was asked ({@link #isNormal}) sets the span's status to ERROR with the
 * diagnostic message.
 *
 * <p>Memory: one map entry per operation in flight, removed when it ends (every operation the
 * protocol layer creates ends exactly once, abandoned ones included). Installed only when tracing is
 * on. Thread-safe.
 */
final class TracingHandler implements RequestHandler {
    static final AttributeKey<Long> CONNECTION = AttributeKey.longKey("larch.connection.id");
    static final AttributeKey<Long> MESSAGE_ID = AttributeKey.longKey("ldap.message_id");
    static final AttributeKey<String> OPERATION = AttributeKey.stringKey("ldap.operation");
    static final AttributeKey<String> DN = AttributeKey.stringKey("ldap.dn");
    static final AttributeKey<String> SCOPE = AttributeKey.stringKey("ldap.scope");
    static final AttributeKey<String> FILTER = AttributeKey.stringKey("ldap.filter");
    static final AttributeKey<String> PLAN = AttributeKey.stringKey("ldap.search.plan");
    static final AttributeKey<Long> ENTRIES = AttributeKey.longKey("ldap.entries");
    static final AttributeKey<Long> RESULT_CODE = AttributeKey.longKey("ldap.result_code");
    static final AttributeKey<Boolean> ABANDONED = AttributeKey.booleanKey("ldap.abandoned");
    static final AttributeKey<String> CLIENT_ADDRESS = AttributeKey.stringKey("client.address");
    static final AttributeKey<Long> CLIENT_PORT = AttributeKey.longKey("client.port");

    /** Longer DNs and filters are cut: a span's size must not follow what a client sends. */
    private static final int MAX_VALUE_CHARS = 1024;

    private final RequestHandler next;
    private final Tracer tracer;
    private final PasswordAttributes passwords;
    private final Map<Operation, Span> inFlight = new ConcurrentHashMap<>();

    TracingHandler(RequestHandler next, Tracer tracer, PasswordAttributes passwords) {
        this.next = next;
        this.tracer = tracer;
        this.passwords = passwords;
    }

    @Override
    public void handle(Operation operation) {
        Span span = start(operation);
        if (span.isRecording()) {
            inFlight.put(operation, span);
        }
        next.handle(operation);
    }

    @Override
    public void ended(Operation operation, ResultResponse response) {
        Span span = inFlight.remove(operation);
        if (span != null) {
            finish(span, operation, response);
        }
        next.ended(operation, response);
    }

    @Override
    public void connectionEvent(Session session, ConnectionEvent event) {
        next.connectionEvent(session, event);
    }

    private Span start(Operation operation) {
        Request request = operation.request();
        String type = OperationName.of(request);
        // The span starts when the request was decoded, not when this handler saw it.
        long waitedNanos = Math.max(0, System.nanoTime() - operation.startNanos());
        Instant started = Instant.now().minusNanos(waitedNanos);
        SpanBuilder builder = tracer.spanBuilder("ldap " + type)
                .setSpanKind(SpanKind.SERVER)
                .setStartTimestamp(started)
                .setAttribute(CONNECTION, operation.session().id())
                .setAttribute(MESSAGE_ID, (long) request.getMessageId())
                .setAttribute(OPERATION, type);
        if (operation.session().remoteAddress() instanceof InetSocketAddress client) {
            builder.setAttribute(CLIENT_ADDRESS, client.getHostString())
                    .setAttribute(CLIENT_PORT, (long) client.getPort());
        }
        Span span = builder.startSpan();
        if (span.isRecording()) {
            describe(span, request);
        }
        return span;
    }

    private void describe(Span span, Request request) {
        switch (request) {
            case SearchRequest r -> {
                span.setAttribute(
                        DN, capped(r.getBase() == null ? "" : r.getBase().getName()));
                span.setAttribute(SCOPE, OperationName.scope(r.getScope()));
                if (r.getFilter() != null) {
                    span.setAttribute(FILTER, capped(MaskedFilter.render(r.getFilter(), passwords)));
                }
            }
            case BindRequest r -> span.setAttribute(DN, capped(r.getName()));
            case AddRequest r -> span.setAttribute(DN, capped(String.valueOf(r.getEntryDn())));
            case DeleteRequest r -> span.setAttribute(DN, capped(String.valueOf(r.getName())));
            case ModifyRequest r -> span.setAttribute(DN, capped(String.valueOf(r.getName())));
            case ModifyDnRequest r -> span.setAttribute(DN, capped(String.valueOf(r.getName())));
            case CompareRequest r -> span.setAttribute(DN, capped(String.valueOf(r.getName())));
            default -> {}
        }
    }

    private static void finish(Span span, Operation operation, ResultResponse response) {
        Object plan = operation.plan();
        if (plan != null) {
            span.setAttribute(PLAN, capped(plan.toString()));
        }
        if (operation.request() instanceof SearchRequest) {
            span.setAttribute(ENTRIES, (long) operation.entriesSent());
        }
        if (response == null) {
            span.setAttribute(ABANDONED, true);
        } else {
            int code = WireResultCode.seen(response);
            span.setAttribute(RESULT_CODE, (long) code);
            if (!isNormal(code)) {
                String message = response.getLdapResult().getDiagnosticMessage();
                span.setStatus(
                        StatusCode.ERROR,
                        "result " + code + (message == null || message.isEmpty() ? "" : ": " + capped(message)));
            }
        }
        span.end();
    }

    /**
     * Codes that report what the client asked about rather than a failure: success, the two compare
     * answers, a size limit (the entries up to it were sent), a referral, a SASL step, and noOperation
     * (an update checked in full, as the client asked, and not committed).
     */
    static boolean isNormal(int code) {
        return code == ResultCodeEnum.SUCCESS.getResultCode()
                || code == ResultCodeEnum.COMPARE_TRUE.getResultCode()
                || code == ResultCodeEnum.COMPARE_FALSE.getResultCode()
                || code == ResultCodeEnum.SIZE_LIMIT_EXCEEDED.getResultCode()
                || code == ResultCodeEnum.REFERRAL.getResultCode()
                || code == ResultCodeEnum.SASL_BIND_IN_PROGRESS.getResultCode()
                || code == WireResultCode.NO_OPERATION;
    }

    private static String capped(String value) {
        if (value == null) {
            return "";
        }
        return value.length() <= MAX_VALUE_CHARS ? value : value.substring(0, MAX_VALUE_CHARS) + "...";
    }
}
