package dev.larch.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * OpenLDAP's command-line clients pointed at one server: every call adds
 * {@code -x -H ldap://127.0.0.1:PORT}, and {@code asAdmin} adds the admin's {@code -D} and {@code -w}.
 * Immutable.
 */
final class LdapUtils {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    /** No ~/.ldaprc or /etc/ldap/ldap.conf may change what the tools do. */
    private static final Map<String, String> ENV = Map.of("LDAPNOINIT", "1");

    private final int port;
    private final List<String> bind;

    private LdapUtils(int port, List<String> bind) {
        this.port = port;
        this.bind = bind;
    }

    /**
     * Anonymous tools for the server on 127.0.0.1:{@code port}.
     *
     * <p>When ldap-utils is not installed, fails the calling test under {@code ./larch test} and
     * skips it otherwise (see {@link RequiredTool}).
     */
    static LdapUtils anonymous(int port) {
        RequiredTool.check(installed(), "ldap-utils", "apt-get install -y ldap-utils");
        return new LdapUtils(port, List.of());
    }

    static boolean installed() {
        return RequiredTool.onPath("ldapsearch", "ldapmodrdn");
    }

    /** The same tools binding as {@code dn} with {@code password}. */
    LdapUtils as(String dn, String password) {
        return new LdapUtils(port, List.of("-D", dn, "-w", password));
    }

    /** The same tools binding as {@code cn=admin,dc=example,dc=com} with {@code password}. */
    LdapUtils asAdmin(String password) {
        return as(LarchProcess.ADMIN_DN, password);
    }

    ProcessResult ldapsearch(String... args) {
        return run("ldapsearch", args);
    }

    /**
     * ldapsearch answering its prompt with {@code answer}: with {@code -E vlv=} it asks for the next
     * window after each one and repeats the last window at end of input, so the answer ends it.
     */
    ProcessResult ldapsearchAnswering(String answer, String... args) {
        List<String> command = new ArrayList<>(List.of("ldapsearch", "-x", "-H", "ldap://127.0.0.1:" + port));
        command.addAll(bind);
        command.addAll(List.of(args));
        return ProcessResult.run(command, ENV, null, TIMEOUT, answer);
    }

    ProcessResult ldapadd(String... args) {
        return run("ldapadd", args);
    }

    ProcessResult ldapmodify(String... args) {
        return run("ldapmodify", args);
    }

    ProcessResult ldapdelete(String... args) {
        return run("ldapdelete", args);
    }

    ProcessResult ldapmodrdn(String... args) {
        return run("ldapmodrdn", args);
    }

    ProcessResult ldapcompare(String... args) {
        return run("ldapcompare", args);
    }

    ProcessResult ldapexop(String... args) {
        return run("ldapexop", args);
    }

    ProcessResult ldapwhoami(String... args) {
        return run("ldapwhoami", args);
    }

    /** {@code ldapadd -f file} with {@code ldif} written to a temporary file first. */
    ProcessResult ldapaddLdif(String ldif) {
        return withFile(ldif, file -> ldapadd("-f", file.toString()));
    }

    /** {@code ldapmodify -f file} with {@code ldif} (change records) written to a temporary file first. */
    ProcessResult ldapmodifyLdif(String ldif) {
        return withFile(ldif, file -> ldapmodify("-f", file.toString()));
    }

    /** ldapmodify of {@code ldif} with extra options first (controls: {@code -e ...}). */
    ProcessResult ldapmodifyLdifWith(String ldif, String... options) {
        return withFile(ldif, file -> {
            List<String> args = new ArrayList<>(List.of(options));
            args.addAll(List.of("-f", file.toString()));
            return ldapmodify(args.toArray(String[]::new));
        });
    }

    /**
     * The DNs {@code ldapsearch -LLL -b base -s scope filter 1.1} prints, in the order printed.
     *
     * @throws AssertionError when ldapsearch fails
     */
    List<String> dns(String base, String scope, String filter) {
        ProcessResult r = ldapsearch("-LLL", "-o", "ldif-wrap=no", "-b", base, "-s", scope, filter, "1.1");
        if (r.exitCode() != 0) {
            throw new AssertionError("search failed\n" + r.describe());
        }
        List<String> dns = new ArrayList<>();
        for (String line : r.out().split("\n")) {
            if (line.startsWith("dn: ")) {
                dns.add(line.substring(4));
            }
        }
        return dns;
    }

    private ProcessResult run(String tool, String... args) {
        List<String> command = new ArrayList<>(List.of(tool, "-x", "-H", "ldap://127.0.0.1:" + port));
        command.addAll(bind);
        command.addAll(List.of(args));
        return ProcessResult.run(command, ENV, null, TIMEOUT);
    }

    private interface FileCommand {
        ProcessResult run(Path file);
    }

    private static ProcessResult withFile(String content, FileCommand command) {
        Path file = null;
        try {
            file = Files.createTempFile("larch-e2e-", ".ldif");
            Files.writeString(file, content);
            return command.run(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (file != null) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException ignored) {
                    // a leftover temporary file harms nobody
                }
            }
        }
    }
}
