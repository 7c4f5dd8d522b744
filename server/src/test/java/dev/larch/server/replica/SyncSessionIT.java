package dev.larch.server.replica;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.DN;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.config.ReplicationConsumer;
import dev.larch.server.entry.EntryUuids;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The consumer's sync session against a real Larch provider: full refreshes in both modes, a change
 * following in persist mode, back-pressure from a slow sink, reconnection with the stored cookie after
 * the provider's connection is cut, and a bind refused.
 */
class SyncSessionIT {
    private static final int RID = 5;
    private static final int CONSUMER_SID = 2;
    private static final Duration WAIT = Duration.ofSeconds(20);

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree();

    private static EventLoopGroup group;

    @BeforeAll
    static void loops() {
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    }

    @AfterAll
    static void stopLoops() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }

    static ReplicationConsumer consumer(int port, ReplicationConsumer.Mode mode, String password) {
        return new ReplicationConsumer(
                RID,
                "ldap://127.0.0.1:" + port,
                "127.0.0.1",
                port,
                false,
                false,
                TestServer.ADMIN_DN,
                password,
                mode,
                1,
                1,
                2);
    }

    private static SyncSession session(ReplicationConsumer consumer, RecordingSink sink) {
        return new SyncSession(consumer, TestServer.SUFFIX, CONSUMER_SID, sink, group, null);
    }

    private static SyncSession session(ReplicationConsumer.Mode mode, RecordingSink sink) {
        return session(consumer(larch.server().port(), mode, TestServer.ADMIN_PASSWORD), sink);
    }

    /** The entryUUID of every entry of the provider, by DN. */
    private static Map<String, UUID> providerUuids() throws Exception {
        Map<String, UUID> uuids = new HashMap<>();
        for (SearchResultEntry e : larch.admin()
                .search(TestServer.SUFFIX, SearchScope.SUB, "(objectClass=*)", "entryUUID")
                .getSearchEntries()) {
            uuids.put(e.getParsedDN().toNormalizedString(), UUID.fromString(e.getAttributeValue("entryUUID")));
        }
        return uuids;
    }

    private static UUID uuid(byte[] bytes) {
        return EntryUuids.toUuid(bytes);
    }

    private static void unit(String name, int people) throws Exception {
        LDAPConnection admin = larch.admin();
        String dn = "ou=" + name + "," + TestServer.SUFFIX;
        admin.add(dn, List.of(new Attribute("objectClass", "organizationalUnit"), new Attribute("ou", name)));
        for (int i = 0; i < people; i++) {
            admin.add(
                    "uid=" + name + i + "," + dn,
                    List.of(
                            new Attribute("objectClass", "inetOrgPerson"),
                            new Attribute("uid", name + i),
                            new Attribute("cn", name + " " + i),
                            new Attribute("sn", "Person" + i)));
        }
    }

    private static ReplicaChange.PhaseEnd awaitRefreshDone(RecordingSink sink, int count) {
        await().atMost(WAIT)
                .until(() -> sink.changes(ReplicaChange.PhaseEnd.class).stream()
                                .filter(ReplicaChange.PhaseEnd::refreshDone)
                                .count()
                        >= count);
        return sink.changes(ReplicaChange.PhaseEnd.class).stream()
                .filter(ReplicaChange.PhaseEnd::refreshDone)
                .toList()
                .get(count - 1);
    }

    /** RefreshStarted, an Upsert per entry of the provider with its entryUUID, and a refresh-done PhaseEnd with our rid. */
    private static void assertFullRefresh(RecordingSink sink) throws Exception {
        ReplicaChange.PhaseEnd end = awaitRefreshDone(sink, 1);
        List<ReplicaChange> changes = sink.changes();
        assertEquals(new ReplicaChange.RefreshStarted(null), changes.get(0));
        Map<String, UUID> expected = providerUuids();
        Map<String, UUID> upserted = new HashMap<>();
        for (ReplicaChange c : changes.subList(1, changes.indexOf(end))) {
            ReplicaChange.Upsert upsert = assertInstanceOf(ReplicaChange.Upsert.class, c);
            upserted.put(upsert.entry().getDn().getNormName(), uuid(upsert.uuid()));
            assertEquals(
                    uuid(upsert.uuid()).toString(),
                    upsert.entry().get("entryUUID").getString(),
                    "the Sync State UUID is the entry's entryUUID");
        }
        assertEquals(expected.size(), upserted.size());
        assertEquals(
                expected.values().stream().sorted().toList(),
                upserted.values().stream().sorted().toList());
        assertNotNull(end.cookie());
        assertEquals(RID, end.cookie().rid());
        assertTrue(end.presentPhase(), "a full refresh is a present phase");
    }

    @Test
    void aFullRefreshInRefreshOnlyModeYieldsEveryEntryThenThePhaseEndAndSearchesAgainFromTheStoredCookie()
            throws Exception {
        unit("only", 3);
        RecordingSink sink = new RecordingSink(CONSUMER_SID);
        try (SyncSession session = session(ReplicationConsumer.Mode.REFRESH_ONLY, sink)) {
            session.start();
            assertFullRefresh(sink);
            // interval-seconds = 1: the next search goes out with the cookie the sink stored.
            await().atMost(WAIT)
                    .until(() ->
                            sink.changes(ReplicaChange.RefreshStarted.class).size() >= 2);
            ReplicaChange.RefreshStarted second =
                    sink.changes(ReplicaChange.RefreshStarted.class).get(1);
            assertNotNull(second.sent());
            assertEquals(RID, second.sent().rid());
            assertEquals(CONSUMER_SID, second.sent().sid());
            assertEquals(1, session.status().connects(), "refreshOnly searches again on the same connection");
        }
    }

    @Test
    void aFullRefreshInPersistModeIsFollowedByEachChangeWithItsCookie() throws Exception {
        unit("persist", 2);
        RecordingSink sink = new RecordingSink(CONSUMER_SID);
        try (SyncSession session = session(ReplicationConsumer.Mode.REFRESH_AND_PERSIST, sink)) {
            session.start();
            assertFullRefresh(sink);
            await().atMost(WAIT).until(() -> session.status().state() == SyncSessionStatus.State.PERSIST);
            String dn = "uid=persist1,ou=persist," + TestServer.SUFFIX;
            larch.admin().modify(dn, new Modification(ModificationType.REPLACE, "description", "changed"));
            UUID changed = providerUuids().get(new DN(dn).toNormalizedString());
            await().atMost(WAIT)
                    .until(() -> sink.changes(ReplicaChange.Upsert.class).stream()
                            .anyMatch(u ->
                                    uuid(u.uuid()).equals(changed) && u.entry().containsAttribute("description")));
            ReplicaChange.Upsert upsert = sink.changes(ReplicaChange.Upsert.class).stream()
                    .filter(u -> uuid(u.uuid()).equals(changed) && u.entry().containsAttribute("description"))
                    .findFirst()
                    .orElseThrow();
            assertNotNull(upsert.cookie(), "a change of the persist stage carries its cookie");
            assertEquals(RID, upsert.cookie().rid());
            assertEquals(upsert.cookie().format(), session.status().lastCookie());
        }
    }

    @Test
    void aSinkHoldingItsBatchesGetsNoMoreThanTheInFlightBoundAndTheSearchResumesOnceOneCompletes() throws Exception {
        unit("slow", 1200);
        RecordingSink sink = new RecordingSink(CONSUMER_SID);
        sink.hold = true;
        try (SyncSession session = session(ReplicationConsumer.Mode.REFRESH_ONLY, sink)) {
            session.start();
            await().atMost(WAIT).until(() -> !sink.batches.isEmpty());
            Thread.sleep(1500);
            assertEquals(
                    SyncConnection.MAX_IN_FLIGHT,
                    sink.batches.size(),
                    "no more batches than the bound while none completes");
            assertEquals(SyncSessionStatus.State.REFRESH, session.status().state());
            // One at a time: complete each held batch as it comes, and every entry arrives.
            await().atMost(WAIT).until(() -> {
                CompletableFutureDrain.completeOne(sink);
                return sink.changes(ReplicaChange.PhaseEnd.class).stream()
                        .anyMatch(ReplicaChange.PhaseEnd::refreshDone);
            });
            sink.release();
            assertNull(session.status().lastError(), "the provider paused rather than failed");
            assertTrue(sink.batches.stream().allMatch(b -> b.size() <= SyncConnection.BATCH_SIZE + 1));
            assertFullRefresh(sink);
        }
    }

    /** {@link SyncConnection#BATCH_BYTES}, spelt out so that a change of it is a change of this test. */
    private static final long TWO_MIB = 2 * 1024 * 1024;

    @Test
    void largeEntriesComeInBatchesBoundedByTheirBytesAsWellAsTheirCount() throws Exception {
        LDAPConnection admin = larch.admin();
        String unit = "ou=photos," + TestServer.SUFFIX;
        admin.add(unit, List.of(new Attribute("objectClass", "organizationalUnit"), new Attribute("ou", "photos")));
        byte[] photo = new byte[200_000];
        // A JFIF header, which the jpegPhoto syntax asks for; the rest is the weight.
        byte[] jfif = {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xE0, 0, 16, 'J', 'F', 'I', 'F', 0};
        System.arraycopy(jfif, 0, photo, 0, jfif.length);
        for (int i = 0; i < 24; i++) {
            admin.add(
                    "uid=photo" + i + "," + unit,
                    List.of(
                            new Attribute("objectClass", "inetOrgPerson"),
                            new Attribute("uid", "photo" + i),
                            new Attribute("cn", "photo " + i),
                            new Attribute("sn", "Photo"),
                            new Attribute("jpegPhoto", photo)));
        }
        RecordingSink sink = new RecordingSink(CONSUMER_SID);
        sink.hold = true; // a slow store: what arrives meanwhile piles up in the batch being filled
        try (SyncSession session = session(ReplicationConsumer.Mode.REFRESH_ONLY, sink)) {
            session.start();
            await().atMost(WAIT).until(() -> {
                CompletableFutureDrain.completeOne(sink);
                return sink.changes(ReplicaChange.PhaseEnd.class).stream()
                        .anyMatch(ReplicaChange.PhaseEnd::refreshDone);
            });
            sink.release();
            assertFullRefresh(sink);
            // 24 entries of 200 KB: far fewer than BATCH_SIZE, but 4.8 MB, more than two batches' bytes.
            assertTrue(sink.batches.size() >= 3, "batches: " + sink.batches.size());
            for (List<ReplicaChange> batch : sink.batches) {
                long bytes = 0;
                long largest = 0;
                for (ReplicaChange change : batch) {
                    bytes += SyncConnection.valueBytes(change);
                    largest = Math.max(largest, SyncConnection.valueBytes(change));
                }
                assertTrue(bytes - largest < TWO_MIB, "a batch of " + bytes + " bytes");
            }
        }
    }

    @Test
    void aCutConnectionIsReestablishedAfterTheBackOffWithTheStoredCookie() throws Exception {
        unit("cut", 2);
        RecordingSink sink = new RecordingSink(CONSUMER_SID);
        try (KillableProxy proxy = new KillableProxy(larch.server().port());
                SyncSession session = session(
                        consumer(proxy.port(), ReplicationConsumer.Mode.REFRESH_AND_PERSIST, TestServer.ADMIN_PASSWORD),
                        sink)) {
            session.start();
            awaitRefreshDone(sink, 1);
            await().atMost(WAIT).until(() -> session.status().state() == SyncSessionStatus.State.PERSIST);
            var stored = sink.storedCookie();
            assertNotNull(stored);
            proxy.cutAll();
            await().atMost(WAIT).until(() -> session.status().connects() >= 2);
            assertEquals("the provider closed the connection", session.status().lastError());
            await().atMost(WAIT)
                    .until(() ->
                            sink.changes(ReplicaChange.RefreshStarted.class).size() >= 2);
            assertEquals(
                    stored,
                    sink.changes(ReplicaChange.RefreshStarted.class).get(1).sent());
            awaitRefreshDone(sink, 2);
            await().atMost(WAIT).until(() -> session.status().state() == SyncSessionStatus.State.PERSIST);
        }
    }

    @Test
    void aWrongPasswordLeavesTheSessionRetryingWithTheBindRefusalAsItsLastError() throws Exception {
        RecordingSink sink = new RecordingSink(CONSUMER_SID);
        try (SyncSession session =
                session(consumer(larch.server().port(), ReplicationConsumer.Mode.REFRESH_AND_PERSIST, "wrong"), sink)) {
            session.start();
            await().atMost(WAIT).until(() -> session.status().lastError() != null);
            SyncSessionStatus status = session.status();
            assertTrue(
                    status.lastError().contains("the bind as " + TestServer.ADMIN_DN + " was refused: 49"),
                    status.lastError());
            assertNotNull(status.lastErrorAt());
            await().atMost(WAIT).until(() -> session.status().connects() >= 2);
            assertEquals(SyncSessionStatus.State.RETRYING, awaitState(session, SyncSessionStatus.State.RETRYING));
            assertTrue(sink.batches.isEmpty());
        }
    }

    @Test
    void aClosedSessionNeverReconnects() throws Exception {
        RecordingSink sink = new RecordingSink(CONSUMER_SID);
        SyncSession session =
                session(consumer(larch.server().port(), ReplicationConsumer.Mode.REFRESH_AND_PERSIST, "wrong"), sink);
        session.start();
        await().atMost(WAIT).until(() -> session.status().lastError() != null);
        session.close();
        long connects = session.status().connects();
        Thread.sleep(2500);
        assertEquals(connects, session.status().connects());
        assertEquals(SyncSessionStatus.State.CLOSED, session.status().state());
    }

    private static SyncSessionStatus.State awaitState(SyncSession session, SyncSessionStatus.State state) {
        await().atMost(WAIT).until(() -> session.status().state() == state);
        return session.status().state();
    }

    /** Completes the oldest held batch, if any. */
    private static final class CompletableFutureDrain {
        static void completeOne(RecordingSink sink) {
            var f = sink.held.poll();
            if (f != null) {
                f.complete(null);
            }
        }
    }
}
