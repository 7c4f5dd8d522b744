package dev.larch.server.auth.policy;

import java.util.List;

import dev.larch.server.directory.SchemaNormalizer;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.protocol.Session;
import org.apache.directory.api.ldap.extras.controls.ppolicy.PasswordPolicyErrorEnum;
import org.apache.directory.api.ldap.model.message.BindRequest;
import org.apache.directory.api.ldap.model.message.ExtendedRequest;
import org.apache.directory.api.ldap.model.message.ModifyRequest;
import org.apache.directory.api.ldap.model.message.Request;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.message.ResultResponseRequest;

/**
 * After an administrator's reset under {@code pwdMustChange}, the session may do nothing but change
 * its own password (draft-behera section 8.1.2.2): bind again, modify its own {@code userPassword}, or
 * Password Modify. Everything else is answered unwillingToPerform, with the changeAfterReset error for
 * a client that sent the request control. Thread-safe.
 */
public final class MustChangeGate {
    /** Password Modify (RFC 3062). */
    static final String PASSWORD_MODIFY_OID = "1.3.6.1.4.1.4203.1.11.1";

    private final SchemaNormalizer schemaNormalizer;
    private final PasswordModifications passwords;

    public MustChangeGate(SchemaNormalizer schemaNormalizer, PasswordModifications passwords) {
        this.schemaNormalizer = schemaNormalizer;
        this.passwords = passwords;
    }

    /**
     * The answer to {@code request} when the session must change its password first and the request
     * does not; null when the request may go on.
     */
    public ResultResponse refusal(Session session, Request request) {
        if (!session.mustChangePassword() || allowed(session, request)) {
            return null;
        }
        if (!(request instanceof ResultResponseRequest r)) {
            return null; // abandon and unbind have no answer and are always allowed
        }
        ResultResponse response = r.getResultResponse();
        response.getLdapResult().setResultCode(ResultCodeEnum.UNWILLING_TO_PERFORM);
        response.getLdapResult().setDiagnosticMessage("the password was reset: change it before doing anything else");
        PpolicyControls.error(request, response, PasswordPolicyErrorEnum.CHANGE_AFTER_RESET);
        return response;
    }

    private boolean allowed(Session session, Request request) {
        return switch (request) {
            case BindRequest b -> true;
            case ExtendedRequest e -> PASSWORD_MODIFY_OID.equals(e.getRequestName());
            case ModifyRequest m -> ownPassword(session, m);
            default -> false;
        };
    }

    private boolean ownPassword(Session session, ModifyRequest request) {
        try {
            return passwords.isSelfChange(
                    session, schemaNormalizer.dn(request.getName()), List.copyOf(request.getModifications()));
        } catch (ResultCodeException e) {
            return false;
        }
    }
}
