package dev.larch.server.cli;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.concurrent.Callable;

import dev.larch.server.tls.Certificates;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import static java.nio.charset.StandardCharsets.US_ASCII;

/**
 * {@code ./larch cert --host NAME [--out DIR]}: a self-signed certificate and key for trying TLS.
 * Writes {@code DIR/cert.pem} (0644) and {@code DIR/key.pem} (0600, created with that mode, never
 * readable by others even for a moment); refuses to overwrite either.
 */
@Command(
        name = "cert",
        mixinStandardHelpOptions = true,
        description =
                "Write a self-signed TLS certificate (DIR/cert.pem) and its key (DIR/key.pem, mode 0600) for trials")
final class CertCommand implements Callable<Integer> {
    @Option(
            names = "--host",
            required = true,
            paramLabel = "NAME",
            description = "host name or IP address clients connect to (localhost and 127.0.0.1 are added)")
    String host;

    @Option(names = "--out", paramLabel = "DIR", description = "directory for cert.pem and key.pem (default: .)")
    Path out = Path.of(".");

    @Option(names = "--days", paramLabel = "N", description = "days the certificate is valid (default: 365)")
    int days = 365;

    @Override
    public Integer call() throws IOException {
        if (host.isBlank() || days < 1) {
            throw new IllegalArgumentException("--host needs a name and --days a positive number");
        }
        Files.createDirectories(out);
        Path certificate = out.resolve("cert.pem");
        Path key = out.resolve("key.pem");
        for (Path file : new Path[] {certificate, key}) {
            if (Files.exists(file)) {
                throw new FileAlreadyExistsException(file + " exists; move it away or choose another --out");
            }
        }
        Certificates.Issued issued = Certificates.selfSignedServer(host.strip(), Duration.ofDays(days));
        Files.createFile(key, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(key, issued.privateKeyPem(), US_ASCII, StandardOpenOption.TRUNCATE_EXISTING);
        Files.writeString(certificate, issued.certificatePem(), US_ASCII, StandardOpenOption.CREATE_NEW);
        System.out.println("Wrote " + certificate + " (self-signed; names " + host.strip()
                + ", localhost, 127.0.0.1, ::1; valid " + days + " days) and " + key + " (mode 0600)");
        System.out.println("Use them with: tls.certificate = "
                + certificate.toAbsolutePath().normalize() + "  and  tls.private-key = "
                + key.toAbsolutePath().normalize());
        System.out.println("Clients trust it with: LDAPTLS_CACERT="
                + certificate.toAbsolutePath().normalize());
        return 0;
    }
}
