package dev.larch.server.net;

import io.netty.channel.ChannelPipeline;
import io.netty.handler.ssl.SslHandler;
import org.apache.directory.api.ldap.model.message.ExtendedRequest;
import org.apache.directory.api.ldap.model.message.ExtendedResponse;
import org.apache.directory.api.ldap.model.message.OpaqueExtendedResponse;
import org.apache.directory.api.ldap.model.message.Request;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;

/**
 * The StartTLS extended operation (RFC 4511 §4.14, RFC 4513 §3): decides its answer and, when it
 * succeeds, puts an {@link SslHandler} at the head of the pipeline before the answer is written, so the
 * answer goes out in clear and everything after it through TLS.
 *
 * <p>Refusals, each with a message: unavailable when the server has no certificate; operationsError
 * when TLS is already on (a second StartTLS, or StartTLS over LDAPS) or when other operations are
 * outstanding or queued behind it (the client must wait for them first). Called on the channel's
 * event loop only.
 */
final class StartTls {
    static final String OID = "1.3.6.1.4.1.1466.20037";
    static final String HANDLER_NAME = "tls";

    private final TlsOptions tls;

    StartTls(TlsOptions tls) {
        this.tls = tls;
    }

    static boolean isRequest(Request request) {
        return request instanceof ExtendedRequest extended && OID.equals(extended.getRequestName());
    }

    /**
     * The response to a StartTLS request; on success the pipeline already holds the TLS handler.
     *
     * @param others operations of the connection other than this one, outstanding or queued
     */
    ExtendedResponse answer(int messageId, ChannelPipeline pipeline, int others) {
        if (!tls.enabled()) {
            return response(
                    messageId,
                    ResultCodeEnum.UNAVAILABLE,
                    "StartTLS is not available: the server has no certificate (tls.certificate or tls.keystore)");
        }
        if (pipeline.get(SslHandler.class) != null) {
            return response(
                    messageId, ResultCodeEnum.OPERATIONS_ERROR, "TLS is already established on this connection");
        }
        if (others > 0) {
            return response(
                    messageId,
                    ResultCodeEnum.OPERATIONS_ERROR,
                    "StartTLS refused: " + others + " other operation(s) outstanding; wait for their results first");
        }
        pipeline.addFirst(HANDLER_NAME, tls.newHandler(pipeline.channel().alloc(), true));
        return response(messageId, ResultCodeEnum.SUCCESS, "");
    }

    private static ExtendedResponse response(int messageId, ResultCodeEnum code, String message) {
        // RFC 4511 §4.14.2: the response carries the StartTLS OID as its responseName, and no value.
        OpaqueExtendedResponse response = new OpaqueExtendedResponse(messageId, OID);
        response.getLdapResult().setResultCode(code);
        if (!message.isEmpty()) {
            response.getLdapResult().setDiagnosticMessage(message);
        }
        return response;
    }
}
