package dev.larch.server.auth.sasl;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.larch.config.Tls;
import dev.larch.server.directory.Directory;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.protocol.Session;
import dev.larch.server.protocol.TlsState;
import dev.larch.server.search.FilterCompiler;
import dev.larch.server.search.SearchPlanner;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.message.BindRequest;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.name.Dn;
import org.apache.directory.api.ldap.model.name.Rdn;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * The SASL mechanisms of binds (RFC 4513 §5.2): EXTERNAL, when the server asks TLS clients for
 * certificates ({@code tls.ca-certificates}), and PLAIN (RFC 4616), when TLS is configured and only on
 * a connection that is under TLS. Each single-step; nothing is kept between binds.
 *
 * <p>{@link #identify} only says who the client claims to be; the bind handler checks the password
 * (PLAIN) with the same work and failed-bind delays as a simple bind. Proxy authorization is not
 * offered: an authzid must name the authenticated identity itself. Thread-safe.
 */
public final class SaslBinds {
    public static final String EXTERNAL = "EXTERNAL";
    public static final String PLAIN = "PLAIN";

    /** No SASL at all: every mechanism is authMethodNotSupported. */
    public static final SaslBinds NONE = new SaslBinds(null, null, false, false, null);

    private final EntryFinder finder;
    private final CertificateMapping certificates;
    private final boolean plain;
    private final boolean external;
    private final Dn suffix;

    private SaslBinds(EntryFinder finder, CertificateMapping certificates, boolean plain, boolean external, Dn suffix) {
        this.finder = finder;
        this.certificates = certificates;
        this.plain = plain;
        this.external = external;
        this.suffix = suffix;
    }

    /** The mechanisms {@code tls} makes possible, over {@code directory}. */
    public static SaslBinds over(Directory directory, FilterCompiler filters, SearchPlanner planner, Tls tls) {
        if (!tls.configured()) {
            return NONE;
        }
        EntryFinder finder = new EntryFinder(directory, filters, planner);
        return new SaslBinds(
                finder,
                CertificateMapping.of(finder, filters, tls),
                true,
                tls.requestsClientCertificates(),
                directory.suffix());
    }

    /** The mechanisms offered, for the root DSE's {@code supportedSASLMechanisms}; possibly empty. */
    public List<String> mechanisms() {
        List<String> offered = new ArrayList<>();
        if (external) {
            offered.add(EXTERNAL);
        }
        if (plain) {
            offered.add(PLAIN);
        }
        return offered;
    }

    /**
     * Who the SASL bind {@code request} on {@code session} claims to be. On the event loop; reads the
     * store for PLAIN's {@code u:} form and for EXTERNAL's mapping, within {@link EntryFinder}'s bounds.
     *
     * @throws ResultCodeException authMethodNotSupported for a mechanism not offered;
     *     confidentialityRequired for PLAIN on a clear connection; inappropriateAuthentication for
     *     EXTERNAL without a client certificate; invalidCredentials for malformed credentials;
     *     insufficientAccessRights for an authzid other than the client's own identity
     */
    public SaslIdentity identify(Session session, BindRequest request) {
        String mechanism = request.getSaslMechanism() == null
                ? ""
                : request.getSaslMechanism().toUpperCase(Locale.ROOT);
        if (external && mechanism.equals(EXTERNAL)) {
            return external(session.tls(), request.getCredentials());
        }
        if (plain && mechanism.equals(PLAIN)) {
            if (session.tls() == null) {
                throw new ResultCodeException(
                        ResultCodeEnum.CONFIDENTIALITY_REQUIRED, "SASL PLAIN needs TLS: use StartTLS or LDAPS first");
            }
            return plain(PlainMessage.parse(request.getCredentials()));
        }
        throw new ResultCodeException(
                ResultCodeEnum.AUTH_METHOD_NOT_SUPPORTED,
                "SASL mechanism " + (mechanism.isEmpty() ? "(none)" : mechanism) + " is not supported; offered: "
                        + (mechanisms().isEmpty() ? "none" : String.join(", ", mechanisms())));
    }

    private SaslIdentity external(TlsState tls, byte[] credentials) {
        if (tls == null || tls.clientCertificate() == null) {
            throw new ResultCodeException(
                    ResultCodeEnum.INAPPROPRIATE_AUTHENTICATION,
                    "SASL EXTERNAL needs a client certificate presented in the TLS handshake");
        }
        Dn dn = certificates.map(tls.clientCertificate());
        String authzid = credentials == null ? "" : new String(credentials, UTF_8);
        if (dn != null && !authzid.isEmpty() && !isSelf(authzid, dn)) {
            throw notSelf();
        }
        return new SaslIdentity(dn, null);
    }

    private SaslIdentity plain(PlainMessage message) {
        Dn dn = authcidDn(message.authcid());
        if (!message.authzid().isEmpty() && !isSelf(message.authzid(), dn)) {
            throw notSelf();
        }
        return new SaslIdentity(dn, message.password());
    }

    /**
     * The DN an authcid names (RFC 4513 §5.2.1.8 authzId forms): {@code dn:<DN>} as given; {@code u:<id>}
     * the entry found by {@code uid}, or, when none is, {@code uid=<id>,<suffix>}, which does not exist,
     * so that an unknown user costs the same work and delays as a wrong password.
     */
    private Dn authcidDn(String authcid) {
        if (authcid.regionMatches(true, 0, "dn:", 0, 3)) {
            Dn dn = finder.normalize(authcid.substring(3));
            if (dn == null || dn.isEmpty()) {
                throw new ResultCodeException(
                        ResultCodeEnum.INVALID_CREDENTIALS, "malformed SASL PLAIN credentials: the dn: is no DN");
            }
            return dn;
        }
        if (authcid.regionMatches(true, 0, "u:", 0, 2)) {
            String user = authcid.substring(2);
            Dn found = finder.byAttribute("uid", user);
            if (found != null) {
                return found;
            }
            Dn absent;
            try {
                absent = finder.normalize(new Dn(new Rdn("uid", user), suffix));
            } catch (LdapException e) {
                absent = null;
            }
            if (absent == null) {
                throw new ResultCodeException(
                        ResultCodeEnum.INVALID_CREDENTIALS, "malformed SASL PLAIN credentials: the u: is no user id");
            }
            return absent;
        }
        throw new ResultCodeException(
                ResultCodeEnum.INVALID_CREDENTIALS,
                "malformed SASL PLAIN credentials: authcid must be dn:<DN> or u:<user id>");
    }

    /** Whether an authzid ({@code dn:} or {@code u:} form) names {@code dn} itself. */
    private boolean isSelf(String authzid, Dn dn) {
        if (dn == null) {
            return false;
        }
        if (authzid.regionMatches(true, 0, "dn:", 0, 3)) {
            return dn.equals(finder.normalize(authzid.substring(3)));
        }
        if (authzid.regionMatches(true, 0, "u:", 0, 2)) {
            return dn.equals(finder.byAttribute("uid", authzid.substring(2)));
        }
        return false;
    }

    private static ResultCodeException notSelf() {
        return new ResultCodeException(
                ResultCodeEnum.INSUFFICIENT_ACCESS_RIGHTS,
                "proxy authorization is not supported: the authzid must be empty or name the authenticated identity");
    }
}
