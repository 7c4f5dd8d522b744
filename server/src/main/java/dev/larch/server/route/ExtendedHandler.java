package dev.larch.server.route;

import dev.larch.server.error.ResultCodeException;
import dev.larch.server.protocol.Operation;
import dev.larch.server.read.VirtualEntries;
import dev.larch.server.write.PasswordModifyHandler;
import org.apache.directory.api.ldap.extras.extended.pwdModify.PasswordModifyRequest;
import org.apache.directory.api.ldap.model.message.ExtendedRequest;
import org.apache.directory.api.ldap.model.message.OpaqueExtendedResponse;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * Extended operations: Who Am I (RFC 4532) and Password Modify (RFC 3062, when offered); anything
 * else is refused with protocolError.
 */
final class ExtendedHandler {
    /** Null when the server does not offer Password Modify. */
    private final PasswordModifyHandler passwordModify;

    ExtendedHandler(PasswordModifyHandler passwordModify) {
        this.passwordModify = passwordModify;
    }

    void handle(Operation op, ExtendedRequest request) {
        if (passwordModify != null && request instanceof PasswordModifyRequest r) {
            passwordModify.handle(op, r);
            return;
        }
        if (!VirtualEntries.WHO_AM_I_OID.equals(request.getRequestName())) {
            // The codec leaves the name unset on requests it has no factory for (OpaqueExtendedRequest).
            String name = request.getRequestName() == null ? "" : " " + request.getRequestName();
            throw new ResultCodeException(ResultCodeEnum.PROTOCOL_ERROR, "unsupported extended operation" + name);
        }
        String authzId =
                op.session().isAnonymous() ? "" : "dn:" + op.session().boundDn().getName();
        // RFC 4532: no responseName, the authzId as the raw response value. The encoder writes
        // opaque responses as they are, so no codec factory is involved.
        OpaqueExtendedResponse response = new OpaqueExtendedResponse(request.getMessageId());
        response.setResponseValue(authzId.getBytes(UTF_8));
        response.getLdapResult().setResultCode(ResultCodeEnum.SUCCESS);
        op.complete(response);
    }
}
