package dev.larch.server.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;

import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMException;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;

import static java.nio.charset.StandardCharsets.US_ASCII;

/**
 * Reads PEM certificates and private keys with Bouncy Castle; every failure is a
 * {@link TlsSetupException} naming the config key and the file. Files are small: at most
 * {@link #MAX_FILE_BYTES} are read. Stateless and thread-safe.
 */
final class PemFiles {
    /** A certificate bundle beyond this is surely a wrong file. */
    static final long MAX_FILE_BYTES = 1 << 20;

    private PemFiles() {}

    /** Every certificate in the file, in file order; at least one. */
    static List<X509Certificate> certificates(String key, Path file) {
        byte[] bytes = read(key, file);
        try (InputStream in = new ByteArrayInputStream(bytes)) {
            List<X509Certificate> certificates = new ArrayList<>();
            for (var certificate : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                certificates.add((X509Certificate) certificate);
            }
            if (certificates.isEmpty()) {
                throw new TlsSetupException(key, file, "holds no PEM certificate");
            }
            return certificates;
        } catch (CertificateException | IOException e) {
            throw new TlsSetupException(key, file, "not a PEM certificate (" + oneLine(e) + ")");
        }
    }

    /** The one unencrypted private key in the file: PKCS#8, or PKCS#1 RSA / SEC1 EC as OpenSSL writes them. */
    static PrivateKey privateKey(String key, Path file) {
        byte[] bytes = read(key, file);
        try (Reader reader = new StringReader(new String(bytes, US_ASCII));
                PEMParser parser = new PEMParser(reader)) {
            JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
            for (Object item = parser.readObject(); item != null; item = parser.readObject()) {
                switch (item) {
                    case PrivateKeyInfo info -> {
                        return converter.getPrivateKey(info);
                    }
                    case PEMKeyPair pair -> {
                        return converter.getKeyPair(pair).getPrivate();
                    }
                    case PEMEncryptedKeyPair ignored ->
                        throw new TlsSetupException(key, file, "the key is encrypted; give it unencrypted (mode 0600)");
                    case PKCS8EncryptedPrivateKeyInfo ignored ->
                        throw new TlsSetupException(key, file, "the key is encrypted; give it unencrypted (mode 0600)");
                    default -> {
                        // a certificate or parameters in the same file: look further
                    }
                }
            }
            throw new TlsSetupException(key, file, "holds no PEM private key");
        } catch (PEMException e) {
            throw new TlsSetupException(key, file, "not a usable PEM private key (" + oneLine(e) + ")");
        } catch (IOException e) {
            throw new TlsSetupException(key, file, "not a PEM private key (" + oneLine(e) + ")");
        }
    }

    /** The whole file, bounded. */
    static byte[] read(String key, Path file) {
        try {
            if (Files.size(file) > MAX_FILE_BYTES) {
                throw new TlsSetupException(key, file, "larger than 1 MiB; not a key or certificate file");
            }
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new TlsSetupException(key, file, "no such file");
        } catch (AccessDeniedException e) {
            throw new TlsSetupException(key, file, "permission denied");
        } catch (IOException e) {
            throw new TlsSetupException(key, file, "cannot read it (" + oneLine(e) + ")");
        }
    }

    static String oneLine(Exception e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return message.replaceAll("\\s+", " ").strip();
    }
}
