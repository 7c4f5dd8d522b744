package dev.larch.bench.run;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.RootDSE;

/**
 * Checks a server before any load: reachable, the bind works, and what software it runs
 * (vendorName and vendorVersion of the root DSE, RFC 3045; "unknown" when absent).
 */
public final class ServerProbe {
    private ServerProbe() {}

    /** The innermost message, e.g. "Connection refused", rather than the SDK's long wrapper text. */
    @SuppressWarnings("ReferenceEquality") // walking a cause chain: identity is what ends it
    private static String rootCause(LDAPException e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String m = t.getMessage() == null ? e.getResultCode().getName() : t.getMessage();
        return t == e ? m : t.getClass().getSimpleName() + ": " + m;
    }

    /** What the root DSE says about the server software. */
    public record Software(String vendorName, String vendorVersion) {}

    /**
     * Connects, binds and reads the root DSE.
     *
     * @throws IllegalArgumentException with one clear sentence if the server is unreachable or the
     *     bind fails
     */
    public static Software check(ServerTarget target) {
        try (LDAPConnection conn = target.open()) {
            RootDSE dse = null;
            try {
                dse = conn.getRootDSE();
            } catch (LDAPException e) {
                // A server may hide its root DSE from this identity; the run can still go ahead.
            }
            String vendor = dse == null ? null : dse.getVendorName();
            String version = dse == null ? null : dse.getVendorVersion();
            return new Software(vendor == null ? "unknown" : vendor, version == null ? "unknown" : version);
        } catch (LDAPException e) {
            ResultCode rc = e.getResultCode();
            if (rc.equals(ResultCode.CONNECT_ERROR)
                    || rc.equals(ResultCode.SERVER_DOWN)
                    || rc.equals(ResultCode.TIMEOUT)) {
                throw new IllegalArgumentException(
                        "cannot reach LDAP server " + target.address() + ": " + rootCause(e));
            }
            String who = target.bindDn() == null ? "anonymously" : "as " + target.bindDn();
            throw new IllegalArgumentException("bind " + who + " to " + target.address() + " failed: "
                    + rc.getName() + " (" + rc.intValue() + ")"
                    + (e.getDiagnosticMessage() == null ? "" : ": " + e.getDiagnosticMessage()));
        }
    }
}
