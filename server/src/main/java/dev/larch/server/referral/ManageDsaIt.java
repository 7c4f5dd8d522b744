package dev.larch.server.referral;

import org.apache.directory.api.ldap.model.message.Request;
import org.apache.directory.api.ldap.model.message.controls.ManageDsaIT;

/**
 * The ManageDsaIT control (RFC 3296 section 3): with it, referral objects are ordinary entries. It has
 * no value; critical or not, the server honours it on every operation it is offered for.
 */
public final class ManageDsaIt {
    /** 2.16.840.1.113730.3.4.2 */
    public static final String OID = ManageDsaIT.OID;

    private ManageDsaIt() {}

    /** Whether {@code request} carries the control. */
    public static boolean requested(Request request) {
        return request.hasControl(OID);
    }
}
