package dev.larch.bench.run;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import com.unboundid.asn1.ASN1Buffer;
import com.unboundid.ldap.listener.InMemoryDirectoryServer;
import com.unboundid.ldap.listener.InMemoryDirectoryServerConfig;
import com.unboundid.ldap.protocol.ExtendedResponseProtocolOp;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.ResultCode;
import dev.larch.bench.data.DataSample;
import dev.larch.bench.data.LdifSampler;
import dev.larch.bench.mix.Mix;
import dev.larch.bench.mix.MixLoader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The churn login over a bare socket ({@link PlainLogin}), as a plain-LDAP run sends it: judged like
 * the SDK's login against a real server, and an error answer (never a hang or an exception) from a
 * server that refuses, hangs up, stays silent or sends a notice of disconnection.
 */
class PlainLoginIT {
    static InMemoryDirectoryServer server;
    static DataSample data;

    private final ExecutorService fakes = Executors.newCachedThreadPool();

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        Path ldif = dir.resolve("d.ldif");
        StringBuilder sb = new StringBuilder("dn: dc=example,dc=com\nobjectClass: domain\ndc: example\n\n"
                + "dn: ou=People,dc=example,dc=com\nobjectClass: organizationalUnit\nou: People\n\n");
        for (String uid : new String[] {"ann.lee", "bob.ray", "cy.young"}) {
            sb.append("dn: uid=")
                    .append(uid)
                    .append(",ou=People,dc=example,dc=com\nobjectClass: inetOrgPerson\ncn: ")
                    .append(uid)
                    .append("\nsn: x\nmail: ")
                    .append(uid)
                    .append("@example.com\nuid: ")
                    .append(uid)
                    .append("\nuserPassword: ") // cleartext: the in-memory server compares as is
                    .append(uid)
                    .append("\n\n");
        }
        Files.writeString(ldif, sb, StandardCharsets.UTF_8);
        server = new InMemoryDirectoryServer(new InMemoryDirectoryServerConfig("dc=example,dc=com"));
        server.importFromLDIF(true, ldif.toFile());
        server.startListening();
        data = new LdifSampler().sample(ldif);
    }

    @AfterAll
    static void stop() {
        server.shutDown(true);
    }

    @AfterEach
    void stopFakes() {
        fakes.shutdownNow();
    }

    private static Request churn(String operation, int port, long timeoutMillis) {
        Mix mix = new MixLoader().parse(("{\"operations\":[" + operation + "]}").getBytes(StandardCharsets.UTF_8), "t");
        return new RequestFactory(mix, data, 5, new ServerTarget("127.0.0.1", port, null, null, timeoutMillis)).next();
    }

    private static Answer loginAgainst(int port, long timeoutMillis) throws Exception {
        Request request = churn("{\"name\":\"ch\",\"type\":\"churn\",\"share\":100}", port, timeoutMillis);
        try (LDAPConnection worker = server.getConnection()) {
            return request.execute(worker);
        }
    }

    @Test
    void aLoginIsJudgedAsTheSdksLoginIs() throws Exception {
        int port = server.getListenPort();
        for (int i = 0; i < 6; i++) {
            Answer a = loginAgainst(port, 10_000);
            assertEquals(Answer.Verdict.SUCCESS, a.verdict(), a.problem());
            assertEquals(1, a.entries());
            assertTrue(a.connectionUsable());
        }
        Request wrong =
                churn("{\"name\":\"ch\",\"type\":\"churn\",\"share\":100,\"password\":\"${uid}x\"}", port, 10_000);
        try (LDAPConnection worker = server.getConnection()) {
            Answer a = wrong.execute(worker);
            assertEquals(Answer.Verdict.WRONG, a.verdict());
            assertEquals(ResultCode.INVALID_CREDENTIALS_INT_VALUE, a.resultCode());
        }
    }

    @Test
    void nothingListeningIsAConnectError() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Answer a = loginAgainst(port, 2_000);
        assertEquals(Answer.Verdict.ERROR, a.verdict());
        assertEquals(ResultCode.CONNECT_ERROR_INT_VALUE, a.resultCode());
        assertTrue(a.connectionUsable(), "the worker's own connection is not affected");
    }

    @Test
    void aServerThatHangsUpIsServerDown() throws Exception {
        try (ServerSocket fake = new ServerSocket(0)) {
            fakes.submit(() -> {
                while (true) {
                    fake.accept().close();
                }
            });
            Answer a = loginAgainst(fake.getLocalPort(), 5_000);
            assertEquals(Answer.Verdict.ERROR, a.verdict());
            assertEquals(ResultCode.SERVER_DOWN_INT_VALUE, a.resultCode());
        }
    }

    @Test
    void aSilentServerTimesOutAfterTheResponseTimeout() throws Exception {
        try (ServerSocket fake = new ServerSocket(0)) {
            fakes.submit(() -> {
                // Reads the bind and never answers.
                try (Socket s = fake.accept()) {
                    s.getInputStream().transferTo(OutputStream.nullOutputStream());
                }
                return null;
            });
            Answer a = loginAgainst(fake.getLocalPort(), 300);
            assertEquals(Answer.Verdict.ERROR, a.verdict());
            assertEquals(ResultCode.TIMEOUT_INT_VALUE, a.resultCode());
        }
    }

    @Test
    void aNoticeOfDisconnectionEndsTheLoginWithItsResultCode() throws Exception {
        try (ServerSocket fake = new ServerSocket(0)) {
            fakes.submit(() -> {
                try (Socket s = fake.accept()) {
                    InputStream in = s.getInputStream();
                    assertTrue(in.read() >= 0, "the bind request");
                    ASN1Buffer notice = new ASN1Buffer();
                    new LDAPMessage(
                                    0,
                                    new ExtendedResponseProtocolOp(
                                            ResultCode.UNAVAILABLE_INT_VALUE,
                                            null,
                                            "shutting down",
                                            null,
                                            "1.3.6.1.4.1.1466.20036",
                                            null))
                            .writeTo(notice);
                    notice.writeTo(s.getOutputStream());
                    s.getOutputStream().flush();
                    in.transferTo(OutputStream.nullOutputStream()); // until the client closes
                }
                return null;
            });
            Answer a = loginAgainst(fake.getLocalPort(), 5_000);
            assertEquals(Answer.Verdict.ERROR, a.verdict());
            assertEquals(ResultCode.UNAVAILABLE_INT_VALUE, a.resultCode());
        }
    }
}
