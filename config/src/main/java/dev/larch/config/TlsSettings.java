package dev.larch.config;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/** Reads the {@link Tls} keys of one config file; the pairing rules are checked here. */
final class TlsSettings {
    // RFC 4512 descr: SASL EXTERNAL looks the value up as an attribute name, or "none".
    private static final Pattern ATTRIBUTE_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9-]*");

    private TlsSettings() {}

    static Tls read(Settings s) throws ConfigException {
        int ldapsPort = s.integer("listen.ldaps-port");
        boolean requireTls = s.bool("security.require-tls-for-binds");
        Path certificate = s.optionalPath("tls.certificate");
        Path privateKey = s.optionalPath("tls.private-key");
        Path ca = s.optionalPath("tls.ca-certificates");
        Path keystore = s.optionalPath("tls.keystore");
        String password = s.value("tls.keystore-password");
        int timeout = s.integer("tls.handshake-timeout-seconds");
        String mapping = s.string("tls.certificate-mapping");
        if (!ATTRIBUTE_NAME.matcher(mapping).matches()) {
            throw s.error("tls.certificate-mapping", "expected an attribute name such as uid or cn, or none");
        }
        if (certificate != null && privateKey == null) {
            throw s.error("tls.private-key", "must be set when tls.certificate is");
        }
        if (privateKey != null && certificate == null) {
            throw s.error("tls.certificate", "must be set when tls.private-key is");
        }
        if (keystore != null && certificate != null) {
            throw s.error("tls.keystore", "set either tls.keystore or tls.certificate and tls.private-key, not both");
        }
        if (ldapsPort != 0 && certificate == null && keystore == null) {
            throw s.error("listen.ldaps-port", "needs a server certificate (tls.certificate or tls.keystore)");
        }
        boolean requireClient = s.bool("tls.require-client-certificate");
        if (requireClient && ca == null) {
            throw s.error("tls.require-client-certificate", "needs tls.ca-certificates (the authorities to accept)");
        }
        List<Path> crls = s.paths("tls.crl-files");
        if (!crls.isEmpty() && ca == null) {
            throw s.error("tls.crl-files", "needs tls.ca-certificates (CRLs revoke client certificates)");
        }
        return new Tls(
                certificate,
                privateKey,
                ca,
                keystore,
                password,
                ldapsPort,
                requireTls,
                timeout,
                mapping,
                requireClient,
                crls,
                CertificateMappingSettings.read(s));
    }
}
