package dev.larch.bench.run;

import java.security.cert.CertificateException;
import javax.net.ssl.SSLException;

import com.unboundid.ldap.sdk.ExtendedResult;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPConnectionOptions;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.extensions.StartTLSExtendedRequest;

/**
 * Where the load goes, how connections are secured and how they authenticate; opens connections
 * the way every worker does. The one place that sets up TLS.
 *
 * @param host server host
 * @param port server port
 * @param bindDn DN to bind as, or null for anonymous
 * @param bindPassword password for {@code bindDn}
 * @param responseTimeoutMillis how long one request may take before it counts as a timeout
 * @param tls LDAPS, StartTLS or none
 */
public record ServerTarget(
        String host, int port, String bindDn, String bindPassword, long responseTimeoutMillis, Tls tls) {

    /** A plain-LDAP target. */
    public ServerTarget(String host, int port, String bindDn, String bindPassword, long responseTimeoutMillis) {
        this(host, port, bindDn, bindPassword, responseTimeoutMillis, Tls.NONE);
    }

    public String address() {
        return host + ":" + port;
    }

    /**
     * Connects, secures and binds ({@code bindDn} or anonymous simple bind) in synchronous mode: no
     * reader thread per connection, which matters with hundreds of workers on a two-core load
     * generator.
     *
     * @throws LDAPException with the server's result code if connecting or binding fails, or
     *     connectError with a sentence saying what went wrong with TLS
     */
    public LDAPConnection open() throws LDAPException {
        return open(true);
    }

    /**
     * Like {@link #open()}; {@code synchronousMode} false gives an asynchronous connection (an SDK
     * reader thread delivers answers), which {@link Request#send} needs.
     */
    public LDAPConnection open(boolean synchronousMode) throws LDAPException {
        LDAPConnection conn = connect(synchronousMode);
        try {
            conn.bind(bindDn == null ? "" : bindDn, bindDn == null ? "" : bindPassword);
            return conn;
        } catch (LDAPException e) {
            conn.close();
            throw e;
        }
    }

    /**
     * Connects and secures (LDAPS or StartTLS) but does not bind, for a caller that binds as another
     * identity.
     *
     * @throws LDAPException as {@link #open()}
     */
    public LDAPConnection connect(boolean synchronousMode) throws LDAPException {
        LDAPConnectionOptions options = new LDAPConnectionOptions();
        options.setUseSynchronousMode(synchronousMode);
        options.setConnectTimeoutMillis(5_000);
        options.setResponseTimeoutMillis(responseTimeoutMillis);
        if (tls.mode() != Tls.Mode.NONE && !tls.trustAll()) {
            options.setSSLSocketVerifier(tls.verifier());
        }
        LDAPConnection conn;
        try {
            conn = tls.mode() == Tls.Mode.LDAPS
                    ? new LDAPConnection(tls.socketFactory(), options, host, port)
                    : new LDAPConnection(options, host, port);
        } catch (LDAPException e) {
            throw explainTls(e);
        }
        if (tls.mode() == Tls.Mode.STARTTLS) {
            startTls(conn);
        }
        return conn;
    }

    private void startTls(LDAPConnection conn) throws LDAPException {
        ExtendedResult result;
        try {
            result = conn.processExtendedOperation(new StartTLSExtendedRequest(tls.context()));
        } catch (LDAPException e) {
            conn.close();
            throw isTls(e) ? explainTls(e) : refused(e.getResultCode(), e.getDiagnosticMessage());
        }
        if (!result.getResultCode().equals(ResultCode.SUCCESS)) {
            conn.close();
            throw refused(result.getResultCode(), result.getDiagnosticMessage());
        }
    }

    private LDAPException refused(ResultCode rc, String diagnostic) {
        return new LDAPException(
                ResultCode.CONNECT_ERROR,
                "the server at " + address() + " refused StartTLS (" + rc.getName() + ", " + rc.intValue()
                        + (diagnostic == null ? "" : ": " + diagnostic) + "); it may not offer StartTLS");
    }

    @SuppressWarnings("ReferenceEquality") // walking a cause chain: identity is what ends it
    private static boolean isTls(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SSLException || t instanceof CertificateException) {
                return true;
            }
        }
        return false;
    }

    /** A TLS failure as one sentence: whose certificate, what is trusted, what to do. */
    @SuppressWarnings("ReferenceEquality") // walking a cause chain: identity is what ends it
    private LDAPException explainTls(LDAPException e) {
        Throwable certificate = null;
        Throwable innermost = e;
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof CertificateException && certificate == null) {
                certificate = t;
            }
            innermost = t;
        }
        if (certificate != null) {
            return new LDAPException(
                    ResultCode.CONNECT_ERROR,
                    "the certificate of the server at " + address() + " is not trusted (trusting "
                            + tls.trustDescription() + "): " + certificate.getMessage()
                            + "; give --trust-store with the server's CA certificate, or --trust-all");
        }
        if (isTls(e)) {
            return new LDAPException(
                    ResultCode.CONNECT_ERROR,
                    "TLS with the server at " + address() + " failed ("
                            + (tls.mode() == Tls.Mode.LDAPS ? "does it speak LDAPS on this port?" : "StartTLS")
                            + "): " + innermost.getMessage());
        }
        return e;
    }
}
