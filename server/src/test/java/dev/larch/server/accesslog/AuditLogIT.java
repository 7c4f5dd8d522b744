package dev.larch.server.accesslog;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.extensions.PasswordModifyExtendedRequest;
import dev.larch.server.testing.TestServer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code logging.audit-log-file}: what a real server writes there for a client's writes. */
class AuditLogIT {
    private static final String PEOPLE = "ou=people,dc=example,dc=com";
    private static final String ANN = "uid=ann," + PEOPLE;

    @TempDir
    Path dir;

    @Test
    void everySuccessfulWriteIsOneChangeRecordSayingWhoWhenAndFromWherePasswordsMasked() throws Exception {
        Path audit = dir.resolve("logs/audit.log");
        Files.createDirectories(dir.resolve("data"));
        try (TestServer server = TestServer.start(dir.resolve("data"), c -> c.set("logging.audit-log-file", audit))) {
            server.add(TestServer.BASE_LDIF);
            try (LDAPConnection admin = server.admin()) {
                admin.add(
                        "dn: " + ANN,
                        "objectClass: inetOrgPerson",
                        "uid: ann",
                        "cn: Ann",
                        "sn: Émile",
                        "userPassword: ann-first-secret");
                admin.modify(
                        ANN,
                        new Modification(ModificationType.REPLACE, "userPassword", "ann-second-secret"),
                        new Modification(ModificationType.ADD, "mail", "ann@example.com"));
                LDAPException refused = assertThrows(
                        LDAPException.class,
                        () -> admin.modify(
                                "uid=nobody," + PEOPLE, new Modification(ModificationType.ADD, "mail", "x")));
                assertEquals(ResultCode.NO_SUCH_OBJECT, refused.getResultCode());
                admin.processExtendedOperation(new PasswordModifyExtendedRequest(ANN, null, "ann-third-secret"));
                admin.modifyDN(ANN, "uid=anne", true);
                admin.delete("uid=anne," + PEOPLE);
            }
            Awaitility.await()
                    .until(() -> Files.exists(audit) && Files.readString(audit).contains("# delete "));
            String log = Files.readString(audit);
            assertFalse(log.contains("secret"), log);
            assertFalse(log.contains("uid=nobody"), "a refused write is no change:\n" + log);
            assertTrue(log.contains("# by: cn=admin,dc=example,dc=com\n"), log);
            assertTrue(log.contains("dn: " + ANN + "\nchangetype: add\n"), log);
            assertTrue(log.contains("userPassword: ***\n"), log);
            assertTrue(
                    log.contains(
                            "sn:: " + Base64.getEncoder().encodeToString("Émile".getBytes(StandardCharsets.UTF_8))),
                    log);
            assertTrue(
                    log.contains(
                            "changetype: modify\nreplace: userPassword\nuserPassword: ***\n-\nadd: mail\nmail: ann@example.com\n-\n"),
                    log);
            assertTrue(log.contains("# passwordModify "), log);
            assertTrue(log.contains("changetype: modrdn\nnewrdn: uid=anne\ndeleteoldrdn: 1\n"), log);
            assertTrue(log.contains("dn: uid=anne," + PEOPLE + "\nchangetype: delete\n"), log);
            assertTrue(log.matches("(?s)# add \\d{4}-\\d\\d-\\d\\dT[^ ]+Z conn=\\d+ op=\\d+ from=[^\\n]+\\n.*"), log);
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(audit)));
        }
    }
}
