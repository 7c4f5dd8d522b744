package dev.larch.server.auth.policy;

import org.apache.directory.api.ldap.extras.controls.ppolicy.PasswordPolicyErrorEnum;
import org.apache.directory.api.ldap.extras.controls.ppolicy.PasswordPolicyRequest;
import org.apache.directory.api.ldap.extras.controls.ppolicy.PasswordPolicyResponse;
import org.apache.directory.api.ldap.extras.controls.ppolicy.PasswordPolicyResponseImpl;
import org.apache.directory.api.ldap.model.message.Request;
import org.apache.directory.api.ldap.model.message.ResultResponse;

/**
 * The password policy control (draft-behera section 6): a client asks with an empty request control,
 * and the server answers with warnings and errors only to clients that asked. The codec is the
 * Apache LDAP API's ({@code api-ldap-extras-codec}); its standalone service registers both factories.
 */
public final class PpolicyControls {
    public static final String OID = PasswordPolicyRequest.OID;

    private PpolicyControls() {}

    /** Whether the request carries the password policy request control. */
    public static boolean requested(Request request) {
        return request.getControls().containsKey(OID);
    }

    /**
     * Adds a response control to {@code response} when {@code request} asked for one.
     *
     * @param timeBeforeExpiration seconds, or -1 for none
     * @param graceRemaining grace logins left, or -1 for none
     * @param error the policy error, or null
     */
    public static void answer(
            Request request,
            ResultResponse response,
            int timeBeforeExpiration,
            int graceRemaining,
            PasswordPolicyErrorEnum error) {
        if (!requested(request)) {
            return;
        }
        PasswordPolicyResponse control = new PasswordPolicyResponseImpl();
        control.setTimeBeforeExpiration(timeBeforeExpiration);
        control.setGraceAuthNRemaining(graceRemaining);
        control.setPasswordPolicyError(error);
        response.addControl(control);
    }

    /** {@link #answer} with an error only. */
    public static void error(Request request, ResultResponse response, PasswordPolicyErrorEnum error) {
        answer(request, response, -1, -1, error);
    }
}
