package dev.larch.server.protocol;

import org.apache.directory.api.ldap.model.message.AbandonRequest;
import org.apache.directory.api.ldap.model.message.ExtendedResponse;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.message.UnbindRequest;

/**
 * Something that happened on a connection that the protocol layer handled itself, without a
 * {@link RequestHandler#handle} call: told to {@link RequestHandler#connectionEvent} so that a
 * decorator (the access log) can record it.
 */
public sealed interface ConnectionEvent {

    /** The connection was accepted. */
    ConnectionEvent OPENED = new Opened();

    /** The connection closed, for whatever reason. */
    ConnectionEvent CLOSED = new Closed();

    record Opened() implements ConnectionEvent {}

    record Closed() implements ConnectionEvent {}

    /** An Abandon request arrived (RFC 4511 §4.11); the abandoned operation ends separately. */
    record AbandonReceived(AbandonRequest request) implements ConnectionEvent {}

    /** An Unbind request arrived (RFC 4511 §4.3); the connection closes next. */
    record UnbindReceived(UnbindRequest request) implements ConnectionEvent {}

    /**
     * A request the decoder could not turn into an operation was answered by the protocol layer.
     *
     * @param startNanos {@link System#nanoTime()} when the request arrived
     */
    record Refused(ResultResponse response, long startNanos) implements ConnectionEvent {}

    /** The TLS handshake of the connection completed (LDAPS, or after StartTLS); see {@link Session#tls()}. */
    record TlsEstablished(TlsState tls) implements ConnectionEvent {}

    /** A Notice of Disconnection (RFC 4511 §4.4.1) was sent; the connection closes next. */
    record Disconnected(ExtendedResponse notice) implements ConnectionEvent {}
}
