package dev.larch.server.tls;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.util.io.pem.PemGenerationException;

/**
 * Issues X.509 certificates with Bouncy Castle: the self-signed server certificate of
 * {@code ./larch cert}, and the small authorities and client certificates tests need. Keys are ECDSA
 * P-256, signatures SHA-256. Stateless and thread-safe.
 */
public final class Certificates {
    private static final SecureRandom RANDOM = new SecureRandom();
    /**
     * Bouncy Castle's provider, not registered globally: its EC private keys encode their public key
     * in PKCS#8 (the JDK's leave it out), which GnuTLS needs to use a key file.
     */
    private static final Provider BC = new BouncyCastleProvider();

    private Certificates() {}

    /** A certificate and its key. */
    public record Issued(X509Certificate certificate, KeyPair keys) {
        /** The certificate in PEM. */
        public String certificatePem() {
            return pem(certificate);
        }

        /** The private key in PEM (PKCS#8, unencrypted). */
        public String privateKeyPem() {
            try {
                return pem(new JcaPKCS8Generator(keys.getPrivate(), null));
            } catch (PemGenerationException e) {
                throw new IllegalStateException("cannot encode the private key", e);
            }
        }
    }

    public static KeyPair newKeyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC", BC);
            generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JDK cannot make P-256 keys", e);
        }
    }

    /**
     * A self-signed server certificate for {@code host}, valid for {@code validity}: its subject is
     * {@code CN=host}, its subject alternative names {@code host}, {@code localhost}, {@code 127.0.0.1}
     * and {@code ::1} (an IP address as {@code host} becomes an IP name). It is marked as its own
     * authority, as {@code openssl req -x509} does: GnuTLS (OpenLDAP's ldap-utils on Debian) accepts a
     * trusted self-signed certificate only then.
     */
    public static Issued selfSignedServer(String host, Duration validity) {
        KeyPair keys = newKeyPair();
        Set<GeneralName> names = new LinkedHashSet<>();
        names.add(generalName(host));
        names.add(new GeneralName(GeneralName.dNSName, "localhost"));
        names.add(new GeneralName(GeneralName.iPAddress, "127.0.0.1"));
        names.add(new GeneralName(GeneralName.iPAddress, "::1"));
        X500Name subject = new X500Name("CN=" + escape(host));
        return new Issued(
                build(
                        subject,
                        keys,
                        subject,
                        keys,
                        true,
                        new ArrayList<>(names),
                        KeyPurposeId.id_kp_serverAuth,
                        validity),
                keys);
    }

    /** A certificate authority named {@code subject} (an RFC 4514 DN), self-signed. */
    public static Issued authority(String subject, Duration validity) {
        KeyPair keys = newKeyPair();
        X500Name name = new X500Name(subject);
        return new Issued(build(name, keys, name, keys, true, List.of(), null, validity), keys);
    }

    /** A client certificate for {@code subject} (an RFC 4514 DN), signed by {@code issuer}. */
    public static Issued client(String subject, Issued issuer, Duration validity) {
        KeyPair keys = newKeyPair();
        X500Name issuerName = X500Name.getInstance(
                issuer.certificate().getSubjectX500Principal().getEncoded());
        return new Issued(
                build(
                        new X500Name(subject),
                        keys,
                        issuerName,
                        issuer.keys(),
                        false,
                        List.of(),
                        KeyPurposeId.id_kp_clientAuth,
                        validity),
                keys);
    }

    /** A server certificate for {@code host} (plus localhost and 127.0.0.1), signed by {@code issuer}. */
    public static Issued server(String host, Issued issuer, Duration validity) {
        KeyPair keys = newKeyPair();
        X500Name issuerName = X500Name.getInstance(
                issuer.certificate().getSubjectX500Principal().getEncoded());
        Set<GeneralName> names = new LinkedHashSet<>();
        names.add(generalName(host));
        names.add(new GeneralName(GeneralName.dNSName, "localhost"));
        names.add(new GeneralName(GeneralName.iPAddress, "127.0.0.1"));
        return new Issued(
                build(
                        new X500Name("CN=" + escape(host)),
                        keys,
                        issuerName,
                        issuer.keys(),
                        false,
                        new ArrayList<>(names),
                        KeyPurposeId.id_kp_serverAuth,
                        validity),
                keys);
    }

    /** An object Bouncy Castle can write as PEM (certificate, key generator). */
    public static String pem(Object object) {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
            writer.writeObject(object);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    private static X509Certificate build(
            X500Name subject,
            KeyPair subjectKeys,
            X500Name issuer,
            KeyPair issuerKeys,
            boolean authority,
            List<GeneralName> alternativeNames,
            KeyPurposeId purpose,
            Duration validity) {
        Instant now = Instant.now();
        try {
            JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                    issuer,
                    new BigInteger(127, RANDOM).add(BigInteger.ONE),
                    Date.from(now.minus(Duration.ofHours(1))), // tolerate clocks slightly behind
                    Date.from(now.plus(validity)),
                    subject,
                    subjectKeys.getPublic());
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(authority));
            builder.addExtension(
                    Extension.subjectKeyIdentifier,
                    false,
                    extensions.createSubjectKeyIdentifier(subjectKeys.getPublic()));
            builder.addExtension(
                    Extension.authorityKeyIdentifier,
                    false,
                    extensions.createAuthorityKeyIdentifier(issuerKeys.getPublic()));
            builder.addExtension(
                    Extension.keyUsage,
                    true,
                    new KeyUsage(
                            authority
                                    ? KeyUsage.digitalSignature | KeyUsage.keyCertSign | KeyUsage.cRLSign
                                    : KeyUsage.digitalSignature));
            if (purpose != null) {
                builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purpose));
            }
            if (!alternativeNames.isEmpty()) {
                builder.addExtension(
                        Extension.subjectAlternativeName,
                        false,
                        new GeneralNames(alternativeNames.toArray(GeneralName[]::new)));
            }
            ContentSigner signer = new JcaContentSignerBuilder("SHA256withECDSA")
                    .setProvider(BC)
                    .build(issuerKeys.getPrivate());
            return new JcaX509CertificateConverter().getCertificate(builder.build(signer));
        } catch (CertIOException | OperatorCreationException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot issue a certificate for " + subject, e);
        }
    }

    private static GeneralName generalName(String host) {
        return isIpAddress(host)
                ? new GeneralName(GeneralName.iPAddress, host)
                : new GeneralName(GeneralName.dNSName, host);
    }

    private static boolean isIpAddress(String host) {
        if (!host.matches("[0-9.]+|[0-9A-Fa-f:]+")) {
            return false;
        }
        try {
            // Only literal addresses reach here, so no name lookup happens.
            InetAddress.getByName(host);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Escapes the RFC 4514 specials of a host name used as a CN value. */
    private static String escape(String value) {
        return value.replaceAll("([,+\"\\\\<>;=#])", "\\\\$1");
    }
}
