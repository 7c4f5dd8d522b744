package dev.larch.bench.run;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.unboundid.ldap.listener.InMemoryDirectoryServer;
import com.unboundid.ldap.listener.InMemoryDirectoryServerConfig;
import com.unboundid.ldap.sdk.LDAPConnection;
import dev.larch.bench.data.DataSample;
import dev.larch.bench.data.LdifSampler;
import dev.larch.bench.mix.Mix;
import dev.larch.bench.mix.MixLoader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every request kind sent both ways, synchronously (execute) and asynchronously (send), against a real server. */
class RequestSendIT {
    static InMemoryDirectoryServer server;
    static DataSample data;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        Path ldif = dir.resolve("d.ldif");
        StringBuilder sb = new StringBuilder("dn: dc=example,dc=com\nobjectClass: domain\ndc: example\n\n"
                + "dn: ou=People,dc=example,dc=com\nobjectClass: organizationalUnit\nou: People\n\n");
        for (String name : List.of("Ann Lee", "Bob Ray", "Cy Young")) {
            String uid = name.toLowerCase(Locale.ROOT).replace(' ', '.');
            sb.append("dn: cn=")
                    .append(name)
                    .append(",ou=People,dc=example,dc=com\nobjectClass: inetOrgPerson\ncn: ")
                    .append(name)
                    .append("\nsn: ")
                    .append(name.substring(name.indexOf(' ') + 1))
                    .append("\ngivenName: ")
                    .append(name, 0, name.indexOf(' '))
                    .append("\nmail: ")
                    .append(name.replace(' ', '_'))
                    .append("@example.com\nuid: ")
                    .append(uid)
                    .append("\nuserPassword: ") // cleartext: the in-memory server compares as is
                    .append(uid)
                    .append("\n\n");
        }
        sb.append("dn: cn=All,dc=example,dc=com\nobjectClass: groupOfNames\ncn: All\n"
                + "member: cn=Ann Lee,ou=People,dc=example,dc=com\nmember: cn=Bob Ray,ou=People,dc=example,dc=com\n");
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

    private static RequestFactory factory(String operation) {
        Mix mix = new MixLoader().parse(("{\"operations\":[" + operation + "]}").getBytes(StandardCharsets.UTF_8), "t");
        return new RequestFactory(mix, data, 3);
    }

    private static Answer sent(Request request) throws Exception {
        try (LDAPConnection c = server.getConnection()) { // asynchronous mode: the SDK's default
            CompletableFuture<Answer> answer = new CompletableFuture<>();
            request.send(c, answer::complete);
            return answer.get(10, TimeUnit.SECONDS);
        }
    }

    private static Answer executed(Request request) throws Exception {
        try (LDAPConnection c = server.getConnection()) {
            return request.execute(c);
        }
    }

    private static void rightBothWays(String operation) throws Exception {
        RequestFactory f = factory(operation);
        for (int i = 0; i < 4; i++) {
            Answer a = sent(f.next());
            assertEquals(Answer.Verdict.SUCCESS, a.verdict(), operation + ": " + a.problem());
            Answer b = executed(f.next());
            assertEquals(Answer.Verdict.SUCCESS, b.verdict(), operation + ": " + b.problem());
        }
    }

    @Test
    void searchesModifiesComparesAndBindsAreRightSentEitherWay() throws Exception {
        rightBothWays("{\"name\":\"s\",\"share\":100,\"filter\":\"(mail=${mail})\",\"attributes\":[\"cn\",\"mail\"],"
                + "\"expect\":\"one\"}");
        rightBothWays("{\"name\":\"g\",\"share\":100,\"base\":\"${groupDn}\",\"scope\":\"base\","
                + "\"filter\":\"(objectClass=*)\",\"attributes\":[\"member\"],\"expect\":\"one\"}");
        rightBothWays("{\"name\":\"m\",\"type\":\"modify\",\"share\":100,\"attribute\":\"telephoneNumber\","
                + "\"value\":\"+1 408 555 0100\"}");
        rightBothWays("{\"name\":\"c\",\"type\":\"compare\",\"share\":100,\"attribute\":\"uid\"}");
        rightBothWays("{\"name\":\"c\",\"type\":\"compare\",\"share\":100,\"value\":\"${absentMail}\","
                + "\"expect\":\"false\"}");
        rightBothWays("{\"name\":\"b\",\"type\":\"bind\",\"share\":100}");
        rightBothWays("{\"name\":\"b\",\"type\":\"bind\",\"share\":100,\"password\":\"${uid}x\","
                + "\"expect\":\"invalidCredentials\"}");
        rightBothWays("{\"name\":\"a\",\"type\":\"authenticate\",\"share\":100,\"attributes\":[\"*\"]}");
        rightBothWays("{\"name\":\"ch\",\"type\":\"churn\",\"share\":100}");
    }

    @Test
    void bindsAreNotPipelinedAndTheRestAre() {
        assertFalse(factory("{\"name\":\"b\",\"type\":\"bind\",\"share\":100}")
                .next()
                .pipelinable());
        assertFalse(factory("{\"name\":\"a\",\"type\":\"authenticate\",\"share\":100}")
                .next()
                .pipelinable());
        assertFalse(factory("{\"name\":\"c\",\"type\":\"churn\",\"share\":100}")
                .next()
                .pipelinable());
        assertTrue(factory("{\"name\":\"m\",\"type\":\"modify\",\"share\":100}")
                .next()
                .pipelinable());
    }

    @Test
    void addsAndDeletesWorkOnTheWorkersOwnEntriesOnly() throws Exception {
        int before = server.countEntries();
        RequestFactory f = factory("{\"name\":\"a\",\"type\":\"add\",\"share\":50},"
                + "{\"name\":\"d\",\"type\":\"delete\",\"share\":50}");
        int deletes = 0;
        for (int i = 0; i < 40; i++) {
            Request r = f.next();
            deletes += r instanceof DeleteCall ? 1 : 0;
            Answer a = i % 2 == 0 ? sent(r) : executed(r);
            assertEquals(Answer.Verdict.SUCCESS, a.verdict(), a.problem());
        }
        assertTrue(deletes > 5, "deletes " + deletes);
        assertEquals(before + f.ownedEntries(), server.countEntries());

        // A script that owns nothing adds instead of deleting another script's entry.
        Request other =
                factory("{\"name\":\"d\",\"type\":\"delete\",\"share\":100}").next();
        assertInstanceOf(AddCall.class, other);

        try (LDAPConnection c = server.getConnection()) {
            assertEquals(f.ownedEntries(), RequestFactory.deleteOwnEntries(List.of(f), c));
        }
        assertEquals(before, server.countEntries());
    }

    @Test
    void aRenameMovesTheWorkersOwnEntryToANewName() throws Exception {
        int before = server.countEntries();
        RequestFactory renames = factory("{\"name\":\"r\",\"type\":\"modrdn\",\"share\":100}");
        Request addFirst = renames.next();
        assertInstanceOf(AddCall.class, addFirst, "nothing owned yet: an add");
        assertEquals(Answer.Verdict.SUCCESS, sent(addFirst).verdict());
        Request rename = renames.next();
        assertInstanceOf(ModRdnCall.class, rename);
        String oldDn = ((ModRdnCall) rename).rename().getDN();
        assertEquals(Answer.Verdict.SUCCESS, sent(rename).verdict());
        assertNull(server.getEntry(oldDn));
        assertEquals(1, renames.ownedEntries());
        assertEquals(before + 1, server.countEntries());
        try (LDAPConnection c = server.getConnection()) {
            assertEquals(1, RequestFactory.deleteOwnEntries(List.of(renames), c));
        }
        assertEquals(before, server.countEntries());
    }
}
