package dev.larch.server.route;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.larch.config.LarchConfig;
import dev.larch.config.Security;
import dev.larch.schema.LarchSchema;
import dev.larch.server.RequestHandlers;
import dev.larch.server.StoredDirectory;
import dev.larch.server.auth.ConfiguredCredentials;
import dev.larch.server.auth.PasswordSchemes;
import dev.larch.server.commit.WriteQueue;
import dev.larch.server.protocol.Operation;
import dev.larch.server.protocol.Session;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.testing.TestServer;
import dev.larch.server.work.WorkerPool;
import io.netty.util.concurrent.DefaultEventExecutor;
import io.netty.util.concurrent.EventExecutor;
import org.apache.directory.api.ldap.model.entry.DefaultModification;
import org.apache.directory.api.ldap.model.entry.ModificationOperation;
import org.apache.directory.api.ldap.model.message.ModifyRequest;
import org.apache.directory.api.ldap.model.message.ModifyRequestImpl;
import org.apache.directory.api.ldap.model.message.Request;
import org.apache.directory.api.ldap.model.message.Response;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.name.Dn;
import org.apache.directory.api.ldap.model.schema.SchemaManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * A write waits in the write queue behind others; meanwhile its connection binds as someone else (a
 * pooled connection handed to another user). The write is performed, and authorized, as the identity
 * that sent it, not as the one bound when its turn comes.
 */
class QueuedWriteIdentityTest {
    static final String LOW = "uid=low,ou=people," + TestServer.SUFFIX;
    static final String TARGET = "uid=target,ou=people," + TestServer.SUFFIX;

    @TempDir
    Path dir;

    StoredDirectory directory;
    WriteQueue writes;
    WorkerPool workers;
    EventExecutor loop;
    OperationRouter router;
    Dn adminDn;

    @BeforeEach
    void open() throws Exception {
        LarchConfig config = TestServer.config(dir.resolve("data"));
        String hash =
                Base64.getEncoder().encodeToString(PasswordSchemes.hash("SSHA", "pw".getBytes(StandardCharsets.UTF_8)));
        TestServer.importOffline(
                config, TestServer.BASE_LDIF + "\n" + person("low", hash) + "\n" + person("target", hash));
        SchemaManager schema = LarchSchema.load(config.schemaFiles());
        directory = StoredDirectory.open(config, schema, true);
        writes = new WriteQueue(directory.store());
        workers = new WorkerPool("queued-write-test", 1, 16);
        loop = new DefaultEventExecutor();
        adminDn = directory.directory().schemaNormalizer().dn(TestServer.ADMIN_DN);
        Security security = TestServer.settings(dir.resolve("data"))
                .set("security.admin-password", "secret")
                .set("security.password-scheme", "SSHA")
                .set("security.bind-failure-delay-ms", 0)
                .set("security.bind-failure-max-delay-ms", 0)
                .build()
                .security();
        var credentials = new ConfiguredCredentials(
                adminDn,
                PasswordSchemes.hash("SSHA", "secret".getBytes(StandardCharsets.UTF_8)),
                false,
                "SSHA",
                1_000_000);
        router = RequestHandlers.over(directory, schema, config.limits(), security, credentials, writes, workers, "t");
    }

    @AfterEach
    void close() throws Exception {
        writes.close();
        workers.close();
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(5, TimeUnit.SECONDS);
        directory.close();
    }

    static String person(String uid, String hash) {
        return "dn: uid=" + uid + ",ou=people," + TestServer.SUFFIX + "\nobjectClass: inetOrgPerson\nuid: " + uid
                + "\ncn: " + uid + "\nsn: " + uid + "\nuserPassword:: " + hash + "\n";
    }

    @Test
    void aQueuedWriteIsPerformedAsWhoSentItNotAsWhoIsBoundWhenItRuns() throws Exception {
        Session session = new Session(1, null);
        session.bound(directory.directory().schemaNormalizer().dn(LOW), false);
        CountDownLatch release = holdTheWriter();

        FakeOperation write = new FakeOperation(changeDescriptionOf(TARGET), session);
        loop.submit(() -> router.handle(write)).get(10, TimeUnit.SECONDS);
        // The connection binds as the administrator while the write waits.
        session.bound(adminDn, true);
        release.countDown();

        assertEquals(ResultCodeEnum.INSUFFICIENT_ACCESS_RIGHTS, write.code());
        try (ReadTxn txn = directory.store().read()) {
            var stored = directory
                    .directory()
                    .load(
                            txn,
                            directory
                                    .directory()
                                    .require(
                                            txn,
                                            directory
                                                    .directory()
                                                    .schemaNormalizer()
                                                    .dn(TARGET)));
            assertFalse(directory.directory().schemaNormalizer().toEntry(stored).containsAttribute("description"));
        }
    }

    @Test
    void aQueuedWriteOfTheAdministratorIsStillTheAdministratorsAfterARebind() throws Exception {
        Session session = new Session(1, null);
        session.bound(adminDn, true);
        CountDownLatch release = holdTheWriter();

        FakeOperation write = new FakeOperation(changeDescriptionOf(TARGET), session);
        loop.submit(() -> router.handle(write)).get(10, TimeUnit.SECONDS);
        session.bound(Dn.EMPTY_DN, false);
        release.countDown();

        assertEquals(ResultCodeEnum.SUCCESS, write.code());
    }

    private CountDownLatch holdTheWriter() throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        writes.submitInternal("the writer held by the test", txn -> {
            started.countDown();
            try {
                release.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        started.await(20, TimeUnit.SECONDS);
        return release;
    }

    private static ModifyRequest changeDescriptionOf(String dn) throws Exception {
        ModifyRequest request = new ModifyRequestImpl();
        request.setMessageId(2);
        request.setName(new Dn(dn));
        request.addModification(
                new DefaultModification(ModificationOperation.REPLACE_ATTRIBUTE, "description", "changed"));
        return request;
    }

    /** One request of a connection whose session the test changes; records the answer. */
    final class FakeOperation implements Operation {
        final Request request;
        final Session session;
        final CompletableFuture<ResultResponse> answer = new CompletableFuture<>();
        final long started = System.nanoTime();

        FakeOperation(Request request, Session session) {
            this.request = request;
            this.session = session;
        }

        ResultCodeEnum code() throws Exception {
            return answer.get(20, TimeUnit.SECONDS).getLdapResult().getResultCode();
        }

        @Override
        public Request request() {
            return request;
        }

        @Override
        public Session session() {
            return session;
        }

        @Override
        public EventExecutor executor() {
            return loop;
        }

        @Override
        public boolean send(Response response) {
            return true;
        }

        @Override
        public boolean isWritable() {
            return true;
        }

        @Override
        public void onWritable(Runnable resume) {
            resume.run();
        }

        @Override
        public boolean isAbandoned() {
            return false;
        }

        @Override
        public void complete(ResultResponse response) {
            answer.complete(response);
        }

        @Override
        public int entriesSent() {
            return 0;
        }

        @Override
        public long startNanos() {
            return started;
        }
    }
}
