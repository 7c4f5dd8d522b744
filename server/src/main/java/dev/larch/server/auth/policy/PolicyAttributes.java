package dev.larch.server.auth.policy;

import java.util.Locale;
import java.util.Set;

import org.apache.directory.api.ldap.model.schema.AttributeType;

/**
 * Names of the password policy state attributes (draft-behera section 5.3) and who may write them.
 * All are NO-USER-MODIFICATION in the schema: clients never write them, the server maintains them,
 * and the administrator may set or remove the ones an operator needs to (assign a policy, force a
 * change, unlock an account, forget failures).
 */
public final class PolicyAttributes {
    public static final String POLICY_SUBENTRY = "pwdPolicySubentry";
    public static final String CHANGED_TIME = "pwdChangedTime";
    public static final String ACCOUNT_LOCKED_TIME = "pwdAccountLockedTime";
    public static final String FAILURE_TIME = "pwdFailureTime";
    public static final String GRACE_USE_TIME = "pwdGraceUseTime";
    public static final String HISTORY = "pwdHistory";
    public static final String RESET = "pwdReset";
    public static final String LAST_SUCCESS = "pwdLastSuccess";
    public static final String START_TIME = "pwdStartTime";
    public static final String END_TIME = "pwdEndTime";

    /**
     * Lower-case names of the operational attributes the administrator may write: besides the
     * lockout state, the validity window ({@code pwdStartTime}, {@code pwdEndTime}, which OpenLDAP
     * lets clients write and the bundled schema marks NO-USER-MODIFICATION) and {@code pwdLastSuccess}
     * (to give an idle account a fresh start).
     */
    private static final Set<String> ADMIN_WRITABLE = Set.of(
            "pwdpolicysubentry",
            "pwdreset",
            "pwdaccountlockedtime",
            "pwdfailuretime",
            "pwdgraceusetime",
            "pwdstarttime",
            "pwdendtime",
            "pwdlastsuccess");

    private PolicyAttributes() {}

    /** Whether the administrator may add, replace or delete values of this NO-USER-MODIFICATION type. */
    public static boolean adminWritable(AttributeType type) {
        for (String name : type.getNames()) {
            if (ADMIN_WRITABLE.contains(name.toLowerCase(Locale.ROOT))) {
                return true;
            }
        }
        return false;
    }
}
