package dev.larch.server.route;

import dev.larch.server.error.ResultCodeException;
import dev.larch.server.protocol.Session;
import org.apache.directory.api.ldap.model.message.BindRequest;
import org.apache.directory.api.ldap.model.message.Request;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.SearchRequest;
import org.apache.directory.api.ldap.model.message.SearchScope;

/**
 * What a connection must have before it may use the directory ({@code security.min-ssf},
 * {@code security.allow-anonymous}), checked before any handler sees the request, with the result
 * codes slapd answers for {@code olcSecurity ssf=}, {@code olcDisallows bind_anon} and
 * {@code olcRequires authc}. Bind and reading the root DSE always pass (a client learns there that
 * StartTLS and SASL are offered); StartTLS, Abandon and Unbind never reach the router. Immutable and
 * thread-safe.
 */
final class SessionRequirements {
    private final int minSsf;
    private final boolean allowAnonymous;

    SessionRequirements(int minSsf, boolean allowAnonymous) {
        this.minSsf = minSsf;
        this.allowAnonymous = allowAnonymous;
    }

    /** Whether any requirement is set: with none, the router skips the check. */
    boolean any() {
        return minSsf > 0 || !allowAnonymous;
    }

    /** @throws ResultCodeException when {@code session} may not send {@code request} */
    void check(Session session, Request request) {
        if (request instanceof BindRequest bind) {
            if (!allowAnonymous && isAnonymousBind(bind)) {
                throw new ResultCodeException(
                        ResultCodeEnum.INAPPROPRIATE_AUTHENTICATION,
                        "anonymous binds are disabled (security.allow-anonymous = false)");
            }
            return;
        }
        if (isRootDseRead(request)) {
            return;
        }
        if (session.ssf() < minSsf) {
            throw new ResultCodeException(
                    ResultCodeEnum.CONFIDENTIALITY_REQUIRED,
                    "this operation needs a connection of security strength " + minSsf + " or more (security.min-ssf)"
                            + "; this one has " + session.ssf() + ": use StartTLS or LDAPS");
        }
        if (!allowAnonymous && session.isAnonymous()) {
            throw new ResultCodeException(
                    ResultCodeEnum.STRONG_AUTH_REQUIRED,
                    "authentication required: bind first (security.allow-anonymous = false)");
        }
    }

    /** A simple bind with no name (RFC 4513 §5.1.1); SASL binds always name who they are. */
    private static boolean isAnonymousBind(BindRequest bind) {
        return bind.isSimple()
                && (bind.getName() == null || bind.getName().isEmpty())
                && (bind.getCredentials() == null || bind.getCredentials().length == 0);
    }

    private static boolean isRootDseRead(Request request) {
        return request instanceof SearchRequest search
                && search.getScope() == SearchScope.OBJECT
                && search.getBase().isEmpty();
    }
}
