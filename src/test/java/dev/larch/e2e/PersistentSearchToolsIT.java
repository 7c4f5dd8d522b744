package dev.larch.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Persistent search as OpenLDAP's ldapsearch sends it ({@code -E '!ps=15/0/1'}: every change type as the bit set add 1, delete 2, modify 4, modDN 8;
 * not only changes; with entry change notifications): a running ldapsearch
 * prints the entries already there, then each change another client makes, with its entry change
 * notification. The class owns {@code ou=psearch}.
 */
@ExtendWith(SharedServer.class)
class PersistentSearchToolsIT {
    static final String UNIT = "ou=psearch," + TestData.SUFFIX;

    static LdapUtils admin;
    static SharedServer.Server server;

    @BeforeAll
    static void load(SharedServer.Server shared) {
        server = shared;
        admin = LdapUtils.anonymous(shared.port()).asAdmin(shared.adminPassword());
        ProcessResult added = admin.ldapaddLdif("dn: " + UNIT + "\nobjectClass: organizationalUnit\nou: psearch\n\n"
                + "dn: uid=first," + UNIT + "\nobjectClass: inetOrgPerson\nuid: first\ncn: First\nsn: F\n");
        assertEquals(0, added.exitCode(), added.describe());
    }

    @Test
    void aRunningLdapsearchPrintsEachChange() throws Exception {
        Path out = Files.createTempFile("larch-psearch-", ".out");
        // stdbuf: ldapsearch writes through stdio, which holds a file's output until exit otherwise.
        Process ldapsearch = new ProcessBuilder(
                        "stdbuf",
                        "-oL",
                        "ldapsearch",
                        "-x",
                        "-H",
                        "ldap://127.0.0.1:" + server.port(),
                        "-D",
                        TestData.ADMIN_DN,
                        "-w",
                        server.adminPassword(),
                        "-o",
                        "ldif-wrap=no",
                        "-b",
                        UNIT,
                        "-E",
                        "!ps=15/0/1",
                        "(objectClass=inetOrgPerson)",
                        "cn")
                .redirectErrorStream(true)
                .redirectOutput(out.toFile())
                .start();
        ldapsearch.getOutputStream().close();
        try {
            // The entry already there is printed first: the search is registered.
            awaitOutput(out, "dn: uid=first," + UNIT);
            ProcessResult modified = admin.ldapmodifyLdif("dn: uid=first," + UNIT
                    + "\nchangetype: modify\nreplace: cn\ncn: Changed\n\n"
                    + "dn: uid=second," + UNIT + "\nchangetype: add\nobjectClass: inetOrgPerson\nuid: second\n"
                    + "cn: Second\nsn: S\n");
            assertEquals(0, modified.exitCode(), modified.describe());
            String printed = awaitOutput(out, "dn: uid=second," + UNIT);
            // ldapsearch decodes the entry change notification into a persistentSearch line.
            assertTrue(printed.contains("cn: Changed"), printed);
            assertTrue(printed.contains("persistentSearch: modify"), printed);
            assertTrue(printed.contains("persistentSearch: add"), printed);
            assertTrue(ldapsearch.isAlive(), "ldapsearch keeps waiting for changes:\n" + printed);
        } finally {
            ldapsearch.destroy();
            ldapsearch.waitFor(10, TimeUnit.SECONDS);
            Files.deleteIfExists(out);
        }
    }

    /** Polls ldapsearch's output until it holds {@code expected}; fails after 20 s showing what it printed. */
    private static String awaitOutput(Path out, String expected) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        String text = Files.readString(out, UTF_8);
        while (!text.contains(expected)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("ldapsearch did not print " + expected + " within 20 s:\n" + text);
            }
            Thread.sleep(50);
            text = Files.readString(out, UTF_8);
        }
        return text;
    }
}
