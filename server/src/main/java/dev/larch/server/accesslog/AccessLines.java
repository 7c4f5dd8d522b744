package dev.larch.server.accesslog;

import dev.larch.server.auth.PasswordAttributes;
import dev.larch.server.protocol.Session;
import dev.larch.server.protocol.TlsState;
import org.apache.directory.api.ldap.model.message.AbandonRequest;
import org.apache.directory.api.ldap.model.message.Message;
import org.apache.directory.api.ldap.model.message.ResultResponse;

/**
 * One access line per event, in one format ({@link AccessLog} text, {@link JsonAccessLog} JSON),
 * written at INFO to the logger {@link AccessLoggingHandler#LOGGER_NAME}. Every implementation
 * masks assertion values on password attributes and caps long values. Thread-safe.
 */
interface AccessLines {

    void opened(Session session);

    /** After the handshake: LDAPS connections right after their open line, StartTLS ones after its op line. */
    void tls(Session session, TlsState tls);

    void closed(Session session);

    /** A final response sent (or, with {@code response} null, an operation abandoned). */
    void completed(
            Session session,
            Message request,
            ResultResponse response,
            int entries,
            long startNanos,
            PasswordAttributes passwords);

    /** The line {@link #completed} writes, without writing it. */
    String completedLine(
            Session session,
            Message request,
            ResultResponse response,
            int entries,
            long startNanos,
            PasswordAttributes passwords);

    /** A request the decoder refused and answered itself; only the response is known. */
    void refused(Session session, ResultResponse response, long startNanos);

    void abandon(Session session, AbandonRequest request);

    void unbind(Session session, Message request);

    void disconnect(Session session, ResultResponse notice);
}
