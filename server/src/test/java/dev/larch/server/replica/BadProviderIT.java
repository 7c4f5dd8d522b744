package dev.larch.server.replica;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.SearchResultDoneProtocolOp;
import com.unboundid.ldap.protocol.SearchResultEntryProtocolOp;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.controls.ContentSyncDoneControl;
import com.unboundid.ldap.sdk.controls.ContentSyncState;
import com.unboundid.ldap.sdk.controls.ContentSyncStateControl;
import dev.larch.config.ReplicationConsumer;
import dev.larch.server.entry.EntryUuids;
import dev.larch.server.sync.SyncCookie;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bad input from a provider ends the session's connection with one clear logged error and a retry, and
 * the sink never receives anything of the bad message; e-syncRefreshRequired is answered by reloading.
 */
class BadProviderIT {
    private static final int RID = 7;
    private static final String CSN = "20261128120000.000000Z#000000#001#000000";
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final UUID GOOD = UUID.fromString("11111111-1111-1111-1111-111111111111");
    private static final UUID BAD = UUID.fromString("22222222-2222-2222-2222-222222222222");

    private static EventLoopGroup group;

    @BeforeAll
    static void loops() {
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    }

    @AfterAll
    static void stopLoops() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }

    private static SyncSession session(FakeProvider provider, ReplicaSink sink) {
        ReplicationConsumer consumer = new ReplicationConsumer(
                RID,
                "ldap://127.0.0.1:" + provider.port(),
                "127.0.0.1",
                provider.port(),
                false,
                false,
                "cn=replicator,dc=example,dc=com",
                "secret",
                ReplicationConsumer.Mode.REFRESH_AND_PERSIST,
                60,
                1,
                1);
        return new SyncSession(consumer, "dc=example,dc=com", 2, sink, group, null);
    }

    private static byte[] entry(int messageId, UUID uuid, String name, Control... controls) {
        return FakeProvider.pdu(new LDAPMessage(
                messageId,
                new SearchResultEntryProtocolOp(
                        "cn=" + name + ",dc=example,dc=com",
                        List.of(
                                new Attribute("objectClass", "device"),
                                new Attribute("cn", name),
                                new Attribute("entryUUID", uuid.toString()))),
                controls));
    }

    private static Control state(UUID uuid, String cookie) {
        return new ContentSyncStateControl(
                ContentSyncState.ADD, uuid, cookie == null ? null : new ASN1OctetString(cookie));
    }

    /** A good entry, then {@code bad}; then nothing (the session must close). */
    private static void assertRefused(FakeProvider.Script bad, String expectedError) throws Exception {
        RecordingSink sink = new RecordingSink(2);
        try (FakeProvider provider = new FakeProvider(bad);
                SyncSession session = session(provider, sink)) {
            session.start();
            await().atMost(WAIT).until(() -> session.status().lastError() != null);
            String error = session.status().lastError();
            assertTrue(error.contains(expectedError), error);
            await().atMost(WAIT).until(() -> provider.connections.get() >= 2);
            for (ReplicaChange change : sink.changes()) {
                if (change instanceof ReplicaChange.Upsert upsert) {
                    assertFalse(EntryUuids.toUuid(upsert.uuid()).equals(BAD), "nothing of the bad message");
                }
            }
        }
    }

    @Test
    void anEntryWithoutSyncStateEndsTheConnectionAndIsRetried() throws Exception {
        assertRefused(
                (id, search) -> List.of(entry(id, GOOD, "good", state(GOOD, null)), entry(id, BAD, "bad")),
                "the entry cn=bad,dc=example,dc=com carries no Sync State control");
    }

    @Test
    void aMalformedSyncStateControlEndsTheConnectionAndIsRetried() throws Exception {
        Control malformed =
                new Control(ContentSyncStateControl.SYNC_STATE_OID, false, new ASN1OctetString(new byte[] {4, 1, 0}));
        assertRefused(
                (id, search) -> List.of(entry(id, GOOD, "good", state(GOOD, null)), entry(id, BAD, "bad", malformed)),
                "does not decode");
    }

    @Test
    void aCookieOfAnotherReplicaEndsTheConnectionAndIsRetried() throws Exception {
        assertRefused(
                (id, search) -> List.of(
                        entry(id, GOOD, "good", state(GOOD, null)),
                        entry(id, BAD, "bad", state(BAD, "rid=009,sid=001,csn=" + CSN))),
                "a cookie for replica 9, not ours (7)");
    }

    @Test
    void aBatchTheSinkRefusesEndsTheConnectionAndIsRetried() throws Exception {
        RecordingSink sink = new RecordingSink(2);
        sink.failWith = "the store is full";
        try (FakeProvider provider =
                        new FakeProvider((id, search) -> List.of(entry(id, GOOD, "good", state(GOOD, null))));
                SyncSession session = session(provider, sink)) {
            session.start();
            await().atMost(WAIT).until(() -> session.status().lastError() != null);
            assertEquals(
                    "the store could not apply a batch: the store is full",
                    session.status().lastError());
            await().atMost(WAIT).until(() -> provider.connections.get() >= 2);
        }
    }

    @Test
    void eSyncRefreshRequiredIsAnsweredByAReloadWithTheCookieThenWithout() throws Exception {
        RecordingSink sink = new RecordingSink(2);
        String stored = "rid=007,sid=002,csn=" + CSN;
        try (FakeProvider provider = new FakeProvider((id, search) -> search < 2
                        ? List.of(FakeProvider.pdu(
                                new LDAPMessage(id, new SearchResultDoneProtocolOp(4096, null, "too old", null))))
                        : List.of(
                                entry(id, GOOD, "good", state(GOOD, null)),
                                FakeProvider.pdu(new LDAPMessage(
                                        id,
                                        new SearchResultDoneProtocolOp(0, null, null, null),
                                        new ContentSyncDoneControl(
                                                new ASN1OctetString("rid=007,sid=001,csn=" + CSN), false)))));
                SyncSession session = session(provider, new StoredSink(sink, SyncCookie.parse(stored)))) {
            session.start();
            await().atMost(WAIT).until(() -> provider.requests.size() >= 3);
            assertFalse(provider.requests.get(0).getReloadHint());
            assertEquals(stored, provider.requests.get(0).getCookie().stringValue());
            assertTrue(provider.requests.get(1).getReloadHint());
            assertEquals(stored, provider.requests.get(1).getCookie().stringValue());
            assertTrue(provider.requests.get(2).getReloadHint());
            assertEquals(
                    "rid=007,sid=002", provider.requests.get(2).getCookie().stringValue(), "no CSN: a full reload");
            await().atMost(WAIT)
                    .until(() -> !sink.changes(ReplicaChange.PhaseEnd.class).isEmpty());
            List<ReplicaChange.RefreshStarted> starts = sink.changes(ReplicaChange.RefreshStarted.class);
            assertEquals(3, starts.size());
            assertNull(starts.get(2).sent());
            ReplicaChange.Upsert upsert =
                    sink.changes(ReplicaChange.Upsert.class).get(0);
            assertArrayEquals(EntryUuids.toBytes(GOOD), upsert.uuid());
            assertNull(session.status().lastError());
        }
    }

    /** A sink whose stored cookie is fixed, recording into another. */
    private record StoredSink(RecordingSink recording, SyncCookie stored) implements ReplicaSink {
        @Override
        public SyncCookie storedCookie() {
            return stored;
        }

        @Override
        public CompletableFuture<Void> apply(List<ReplicaChange> changes) {
            return recording.apply(changes);
        }
    }
}
