package dev.larch.server.auth.policy;

import org.apache.directory.api.ldap.extras.controls.ppolicy.PasswordPolicyErrorEnum;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;

/**
 * A password change the policy refuses: the LDAP result code and a safe message for every client,
 * plus the policy error (draft-behera section 6.2) for clients that sent the request control. Carries
 * no stack trace: it is an answer, not a fault.
 */
public final class PolicyRefusal extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient ResultCodeEnum code;
    private final transient PasswordPolicyErrorEnum error;

    public PolicyRefusal(ResultCodeEnum code, PasswordPolicyErrorEnum error, String message) {
        super(message, null, false, false);
        this.code = code;
        this.error = error;
    }

    public ResultCodeEnum code() {
        return code;
    }

    /** The policy error for the response control; never null. */
    public PasswordPolicyErrorEnum error() {
        return error;
    }
}
