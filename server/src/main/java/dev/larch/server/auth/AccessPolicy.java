package dev.larch.server.auth;

import java.util.Set;

import dev.larch.server.error.ResultCodeException;
import dev.larch.server.protocol.Session;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;

/**
 * Who may do what, until access control lists arrive: anyone may read and search, only the
 * administrator may write (users may change their own password, see the modify handler), and
 * password values, current and former, are shown to the administrator alone.
 */
public final class AccessPolicy {
    /** OID of userPassword. */
    public static final String USER_PASSWORD_OID = "2.5.4.35";
    /** OID of pwdHistory (draft-behera): former passwords, as secret as the current one. */
    public static final String PWD_HISTORY_OID = "1.3.6.1.4.1.42.2.27.8.1.20";

    public void requireWrite(Session session, String operation) {
        if (!session.isAdmin()) {
            throw new ResultCodeException(
                    ResultCodeEnum.INSUFFICIENT_ACCESS_RIGHTS, "only the directory administrator may " + operation);
        }
    }

    /** OIDs of the attributes whose values this session may not see, nor test in a search filter. */
    public Set<String> unreadable(Session session) {
        return session.isAdmin() ? Set.of() : Set.of(USER_PASSWORD_OID, PWD_HISTORY_OID);
    }

    /** Whether this session may see (or compare) the values of the attribute {@code oid}. */
    public boolean canRead(Session session, String oid) {
        return (!USER_PASSWORD_OID.equals(oid) && !PWD_HISTORY_OID.equals(oid)) || session.isAdmin();
    }
}
