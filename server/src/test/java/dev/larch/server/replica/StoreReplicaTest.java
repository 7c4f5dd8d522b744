package dev.larch.server.replica;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import dev.larch.server.csn.Csn;
import dev.larch.server.csn.CsnVector;
import dev.larch.server.entry.EntryUuids;
import dev.larch.server.entry.StoredStamps;
import dev.larch.server.store.LoggedChange;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.store.WriteTxn;
import dev.larch.server.sync.SyncCookie;
import dev.larch.server.testing.Ldif;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StoreReplicaTest {
    private static final String PEOPLE = "ou=People,dc=example,dc=com";
    private static final String ANN = "uid=ann," + PEOPLE;
    private static final String BOB = "uid=bob," + PEOPLE;
    private static final String PEOPLE_LDIF = """
            dn: uid=ann,ou=People,dc=example,dc=com
            objectClass: inetOrgPerson
            uid: ann
            cn: Ann
            sn: A

            dn: uid=bob,ou=People,dc=example,dc=com
            objectClass: inetOrgPerson
            uid: bob
            cn: Bob
            sn: B

            """;

    private static final String TEAM_AND_CARL = """
            dn: ou=Team,dc=example,dc=com
            objectClass: organizationalUnit
            ou: Team

            dn: uid=carl,ou=Team,dc=example,dc=com
            objectClass: inetOrgPerson
            uid: carl
            cn: Carl
            sn: C

            """;

    @Test
    void aSecondIdenticalFullRefreshSkipsEveryEntryAndLogsNothing(@TempDir Path a, @TempDir Path b) {
        try (ReplicaMember provider = new ReplicaMember(a, 1);
                ReplicaMember consumer = new ReplicaMember(b, 2)) {
            provider.add(Ldif.BASE + PEOPLE_LDIF);
            List<ReplicaChange> refresh = provider.fullRefresh();
            consumer.apply(refresh);
            assertEquals(provider.contents(), consumer.contents());
            assertEquals(5, consumer.changeLogSize());
            assertEquals(provider.context(), consumer.replica.storedCookie().csns());
            assertEquals(provider.context(), consumer.context());

            consumer.apply(refresh);

            assertEquals(provider.contents(), consumer.contents());
            assertEquals(5, consumer.changeLogSize(), "a skipped entry is not logged again");
            assertEquals(provider.context(), consumer.context());
        }
    }

    @Test
    void aBatchWithAnUnacceptableEntryCommitsNothingAndKeepsTheStoredCookie(@TempDir Path a, @TempDir Path b) {
        try (ReplicaMember provider = new ReplicaMember(a, 1);
                ReplicaMember consumer = new ReplicaMember(b, 2)) {
            provider.add(Ldif.BASE);
            consumer.apply(provider.fullRefresh());
            SyncCookie before = consumer.replica.storedCookie();
            long entries = consumer.entryCount();
            long logged = consumer.changeLogSize();

            List<ReplicaChange> people = provider.add(PEOPLE_LDIF);
            ReplicaChange.Upsert bob = (ReplicaChange.Upsert) people.get(1);
            Entry broken = bob.entry().clone();
            broken.add("x-no-such-attribute", "value");
            List<ReplicaChange> batch =
                    List.of(people.get(0), new ReplicaChange.Upsert(bob.uuid(), broken, bob.cookie()));

            CompletionException failed = assertThrows(CompletionException.class, () -> consumer.apply(batch));

            assertTrue(
                    failed.getCause().getMessage().contains(BOB),
                    failed.getCause().getMessage());
            assertEquals(entries, consumer.entryCount());
            assertNull(consumer.find(ANN), "the good entry before it was not kept either");
            assertEquals(logged, consumer.changeLogSize());
            assertEquals(before, consumer.replica.storedCookie());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aPresentPhaseDeletesTheEntriesNotNamedAndKeepsThoseNamedByUuidOnly(@TempDir Path a, @TempDir Path b) {
        try (ReplicaMember provider = new ReplicaMember(a, 1);
                ReplicaMember consumer = new ReplicaMember(b, 2)) {
            provider.add(Ldif.BASE + PEOPLE_LDIF);
            consumer.apply(provider.fullRefresh());
            // A change of the consumer's own, which the provider has not seen: it stays.
            consumer.add("""
                    dn: uid=cy,ou=People,dc=example,dc=com
                    objectClass: inetOrgPerson
                    uid: cy
                    cn: Cy
                    sn: C
                    """);
            SyncCookie cookie = consumer.replica.storedCookie();
            byte[] groups = uuidOf(consumer, "ou=Groups,dc=example,dc=com");
            byte[] people = uuidOf(consumer, PEOPLE);
            byte[] ann = uuidOf(consumer, ANN);

            consumer.apply(List.of(
                    new ReplicaChange.RefreshStarted(cookie),
                    new ReplicaChange.Present(groups),
                    new ReplicaChange.IdSet(List.of(people, ann), false, null),
                    new ReplicaChange.PhaseEnd(true, true, new SyncCookie(1, 1, provider.context()))));

            assertNull(consumer.find(BOB), "bob was not named: the provider deleted him");
            assertNotNull(consumer.find(ANN));
            assertNotNull(consumer.find(PEOPLE));
            assertNotNull(consumer.find("ou=Groups,dc=example,dc=com"));
            assertNotNull(consumer.find("dc=example,dc=com"), "the suffix is never swept");
            assertNotNull(consumer.find("uid=cy," + PEOPLE), "newer than what the provider has of its server ID");
            try (ReadTxn txn = consumer.store.read()) {
                assertEquals(0, txn.presentCount(ReplicaMember.RID), "the present set is cleared");
            }
        }
    }

    @Test
    void aDeletePhaseDeletesOnlyTheEntriesItNames(@TempDir Path a, @TempDir Path b) {
        try (ReplicaMember provider = new ReplicaMember(a, 1);
                ReplicaMember consumer = new ReplicaMember(b, 2)) {
            provider.add(Ldif.BASE + PEOPLE_LDIF);
            consumer.apply(provider.fullRefresh());
            ReplicaChange deleteBob = provider.delete(BOB);
            byte[] bob = ((ReplicaChange.Deleted) deleteBob).uuid();

            consumer.apply(List.of(
                    new ReplicaChange.RefreshStarted(consumer.replica.storedCookie()),
                    new ReplicaChange.IdSet(List.of(bob), true, null),
                    new ReplicaChange.PhaseEnd(false, true, new SyncCookie(1, 1, provider.context()))));

            assertNull(consumer.find(BOB));
            assertEquals(provider.contents(), consumer.contents());
            assertEquals(provider.context(), consumer.replica.storedCookie().csns());
            // The delete is logged with the cookie's CSN, so a consumer of this server is sent it.
            assertEquals(
                    provider.context().get(1).toString(), consumer.lastLogged().csnText());
        }
    }

    @Test
    void aRenameArrivesAsAnUpsertWithANewDnAndMovesTheSameEntry(@TempDir Path a, @TempDir Path b) {
        try (ReplicaMember provider = new ReplicaMember(a, 1);
                ReplicaMember consumer = new ReplicaMember(b, 2)) {
            provider.add(Ldif.BASE + PEOPLE_LDIF);
            consumer.apply(provider.fullRefresh());
            long id = consumer.find(ANN).id();

            consumer.apply(provider.rename(ANN, "uid=anne"));

            assertNull(consumer.find(ANN));
            assertEquals(id, consumer.find("uid=anne," + PEOPLE).id());
            assertEquals(provider.contents(), consumer.contents());
        }
    }

    @Test
    void anEntrySentBeforeItsParentInOneBatchWaitsForItAndIsKept(@TempDir Path a, @TempDir Path b) {
        try (ReplicaMember provider = new ReplicaMember(a, 1);
                ReplicaMember consumer = new ReplicaMember(b, 2)) {
            provider.add(Ldif.BASE);
            consumer.apply(provider.fullRefresh());
            List<ReplicaChange> added = addTeamAndCarl(provider);

            // As a delta refresh in entry ID order sends an entry moved under a newer parent.
            consumer.apply(added.get(1), added.get(0));

            assertNotNull(consumer.find("uid=carl,ou=Team,dc=example,dc=com"), "the child was kept");
            assertEquals(provider.contents(), consumer.contents());
        }
    }

    @Test
    void anEntryWhoseParentComesInALaterBatchOfTheRefreshWaitsForItAndIsKept(@TempDir Path a, @TempDir Path b) {
        try (ReplicaMember provider = new ReplicaMember(a, 1);
                ReplicaMember consumer = new ReplicaMember(b, 2)) {
            provider.add(Ldif.BASE);
            consumer.apply(provider.fullRefresh());
            List<ReplicaChange> added = addTeamAndCarl(provider);
            SyncCookie cookie = added.get(1).cookie();

            // A refresh's entries come without cookies, the child first, in batches of their own; the
            // cookie comes with the end of the phase.
            consumer.apply(withoutCookie(added.get(1)));
            assertNull(consumer.find("uid=carl,ou=Team,dc=example,dc=com"), "the child waits for its parent");
            consumer.apply(withoutCookie(added.get(0)));
            consumer.apply(new ReplicaChange.PhaseEnd(false, true, cookie));

            assertNotNull(consumer.find("uid=carl,ou=Team,dc=example,dc=com"), "the child was kept");
            assertEquals(provider.contents(), consumer.contents());
            assertEquals(provider.context(), consumer.replica.storedCookie().csns());
        }
    }

    @Test
    void anEntryWhoseParentNeverComesIsDroppedWhenTheBatchStoringTheCookieIsApplied(@TempDir Path a, @TempDir Path b) {
        try (ReplicaMember provider = new ReplicaMember(a, 1);
                ReplicaMember consumer = new ReplicaMember(b, 2)) {
            provider.add(Ldif.BASE);
            consumer.apply(provider.fullRefresh());
            List<ReplicaChange> added = addTeamAndCarl(provider);

            consumer.apply(withoutCookie(added.get(1)));
            consumer.apply(new ReplicaChange.PhaseEnd(false, true, added.get(1).cookie()));
            consumer.apply(withoutCookie(added.get(0)));

            assertNotNull(consumer.find("ou=Team,dc=example,dc=com"));
            assertNull(
                    consumer.find("uid=carl,ou=Team,dc=example,dc=com"),
                    "not carried past the cookie that covers it: dropped as its parent was not here");
        }
    }

    /** Adds ou=Team and uid=carl below it on {@code provider}; the two changes, parent first. */
    private static List<ReplicaChange> addTeamAndCarl(ReplicaMember provider) {
        return provider.add(TEAM_AND_CARL);
    }

    private static ReplicaChange withoutCookie(ReplicaChange change) {
        ReplicaChange.Upsert upsert = (ReplicaChange.Upsert) change;
        return new ReplicaChange.Upsert(upsert.uuid(), upsert.entry(), null);
    }

    @Test
    void batchesPreparedOutOfOrderAreStoredInTheOrderHandedIn(@TempDir Path a, @TempDir Path b) {
        Deque<Runnable> preparing = new ArrayDeque<>();
        try (ReplicaMember provider = new ReplicaMember(a, 1);
                ReplicaMember consumer = new ReplicaMember(b, 2, preparing::add)) {
            provider.add(Ldif.BASE + PEOPLE_LDIF);
            List<ReplicaChange> refresh = provider.fullRefresh();
            CompletableFuture<Void> first = consumer.replica.apply(refresh);
            ReplicaChange modified = provider.modify(ANN, "description", "after the refresh");
            CompletableFuture<Void> second = consumer.replica.apply(List.of(modified));

            preparing.removeLast().run(); // the second batch is ready first
            assertFalse(second.isDone(), "the second batch waits for the first");
            preparing.removeLast().run();
            CompletableFuture.allOf(first, second).join();

            assertEquals(provider.contents(), consumer.contents());
            assertEquals(provider.context(), consumer.replica.storedCookie().csns());
        }
    }

    @Test
    void aBatchHandedInBehindOneThatFailsIsNotStoredAndTheNextSessionStartsAfresh(@TempDir Path a, @TempDir Path b) {
        Deque<Runnable> preparing = new ArrayDeque<>();
        try (ReplicaMember provider = new ReplicaMember(a, 1);
                ReplicaMember consumer = new ReplicaMember(b, 2, preparing::add)) {
            provider.add(Ldif.BASE);
            CompletableFuture<Void> base = consumer.replica.apply(provider.fullRefresh());
            preparing.remove().run();
            base.join();
            SyncCookie before = consumer.replica.storedCookie();
            long entries = consumer.entryCount();

            List<ReplicaChange> people = provider.add(PEOPLE_LDIF);
            ReplicaChange.Upsert ann = (ReplicaChange.Upsert) people.get(0);
            Entry broken = ann.entry().clone();
            broken.add("x-no-such-attribute", "value");
            CompletableFuture<Void> failing =
                    consumer.replica.apply(List.of(new ReplicaChange.Upsert(ann.uuid(), broken, ann.cookie())));
            CompletableFuture<Void> behind = consumer.replica.apply(List.of(people.get(1)));
            preparing.remove().run();
            preparing.remove().run();

            assertThrows(CompletionException.class, failing::join);
            CompletionException refused = assertThrows(CompletionException.class, behind::join);
            assertTrue(
                    refused.getCause().getMessage().contains(ANN),
                    refused.getCause().getMessage());
            assertNull(consumer.find(BOB), "the batch behind the failed one stored nothing");
            assertEquals(entries, consumer.entryCount());
            assertEquals(before, consumer.replica.storedCookie(), "no cookie covers what was not stored");

            CompletableFuture<Void> again = consumer.replica.apply(people);
            preparing.remove().run();
            again.join();
            assertEquals(provider.contents(), consumer.contents());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void persistChangesWithCookiesMoveTheStoredCookieAndTheContextCsn(@TempDir Path a, @TempDir Path b) {
        try (ReplicaMember provider = new ReplicaMember(a, 1);
                ReplicaMember consumer = new ReplicaMember(b, 2)) {
            provider.add(Ldif.BASE + PEOPLE_LDIF);
            consumer.apply(provider.fullRefresh());
            SyncCookie before = consumer.replica.storedCookie();

            ReplicaChange modified = provider.modify(ANN, "description", "moved on");
            consumer.apply(modified, provider.delete(BOB));

            SyncCookie after = consumer.replica.storedCookie();
            assertEquals(ReplicaMember.RID, after.rid());
            assertEquals(2, after.sid(), "the cookie names this server");
            assertNotEquals(before, after);
            assertEquals(provider.context(), after.csns());
            assertEquals(provider.context(), consumer.context());
            assertEquals(provider.contents(), consumer.contents());
        }
    }

    @Test
    void aCsnTooFarAheadOfTheLocalClockIsRefusedAndNothingIsCommitted(@TempDir Path a, @TempDir Path b) {
        Clock anHourAgo = Clock.fixed(Instant.now().minusSeconds(3600), ZoneOffset.UTC);
        try (ReplicaMember provider = new ReplicaMember(a, 1);
                ReplicaMember consumer = new ReplicaMember(b, 2, anHourAgo, 300)) {
            List<ReplicaChange> sent = provider.add(Ldif.BASE);
            String csn = StoredStamps.csn(provider.find("dc=example,dc=com")).toString();

            CompletionException failed = assertThrows(CompletionException.class, () -> consumer.apply(sent.get(0)));

            String message = failed.getCause().getMessage();
            assertTrue(message.contains(csn) && message.contains("300 s"), message);
            assertEquals(0, consumer.entryCount());
            assertNull(consumer.replica.storedCookie());
        }
    }

    @Test
    void aPresentSetOf200000UuidsIsKeptInTheStoreNotOnTheHeap(@TempDir Path b) {
        try (ReplicaMember consumer = new ReplicaMember(b, 2)) {
            consumer.apply(new ReplicaChange.RefreshStarted(null));
            int total = 200_000;
            int perBatch = 20_000;
            for (int from = 0; from < total; from += perBatch) {
                List<byte[]> uuids = new ArrayList<>(perBatch);
                for (int i = from; i < from + perBatch; i++) {
                    uuids.add(EntryUuids.toBytes(new UUID(0x5eedL, i)));
                }
                consumer.apply(new ReplicaChange.IdSet(uuids, false, null));
            }
            try (ReadTxn txn = consumer.store.read()) {
                assertEquals(total, txn.presentCount(ReplicaMember.RID), "every mark is a record of the store");
                assertTrue(txn.isPresent(ReplicaMember.RID, EntryUuids.toBytes(new UUID(0x5eedL, 123_456))));
                assertEquals(0, txn.presentCount(ReplicaMember.RID + 1), "marks are per replica");
            }

            consumer.apply(new ReplicaChange.PhaseEnd(false, true, null));

            try (ReadTxn txn = consumer.store.read()) {
                assertEquals(0, txn.presentCount(ReplicaMember.RID));
            }
        }
    }

    @Test
    void aPresentPhaseSweepsMoreEntriesThanOneChunkOfItsWalk(@TempDir Path a, @TempDir Path b) {
        int people = PresentSweep.CHUNK * 2 + 500;
        try (ReplicaMember provider = new ReplicaMember(a, 1);
                ReplicaMember consumer = new ReplicaMember(b, 2)) {
            provider.add(Ldif.BASE + Ldif.bulkUnit("ou=Many,dc=example,dc=com", people, i -> "person " + i));
            consumer.apply(provider.fullRefresh());
            assertEquals(4 + people, consumer.entryCount());

            consumer.apply(List.of(
                    new ReplicaChange.RefreshStarted(consumer.replica.storedCookie()),
                    new ReplicaChange.IdSet(
                            List.of(uuidOf(consumer, PEOPLE), uuidOf(consumer, "ou=Groups,dc=example,dc=com")),
                            false,
                            null),
                    new ReplicaChange.PhaseEnd(true, true, new SyncCookie(1, 1, provider.context()))));

            assertEquals(3, consumer.entryCount(), "the unit and every person below it are gone");
            assertNull(consumer.find("ou=Many,dc=example,dc=com"));
        }
    }

    @Test
    void aRestartedReplicaFindsTheCookieItCommitted(@TempDir Path a, @TempDir Path b) {
        try (ReplicaMember provider = new ReplicaMember(a, 1)) {
            provider.add(Ldif.BASE + PEOPLE_LDIF);
            SyncCookie committed;
            try (ReplicaMember consumer = new ReplicaMember(b, 2)) {
                consumer.apply(provider.fullRefresh());
                committed = consumer.replica.storedCookie();
            }
            try (ReplicaMember restarted = new ReplicaMember(b, 2)) {
                assertEquals(committed, restarted.replica.storedCookie());
                assertEquals(provider.contents(), restarted.contents());
            }
        }
    }

    @Test
    void aDeleteIsRememberedWhileTheChangeLogKeepsIt(@TempDir Path a, @TempDir Path b) {
        try (ReplicaMember provider = new ReplicaMember(a, 1);
                ReplicaMember consumer = new ReplicaMember(b, 2)) {
            provider.add(Ldif.BASE + PEOPLE_LDIF);
            consumer.apply(provider.fullRefresh());
            ReplicaChange annAsSent;
            try (ReadTxn txn = provider.store.read()) {
                annAsSent = provider.upsertOf(provider.load(txn, ANN));
            }
            consumer.apply(provider.delete(ANN));

            consumer.apply(annAsSent);
            assertNull(consumer.find(ANN), "an add or modify arriving after the delete does not bring it back");

            try (WriteTxn txn = consumer.store.write()) {
                txn.trimChangeLog(0, "99991231235959.999999Z#ffffff#fff#ffffff".getBytes(US_ASCII));
                txn.commit();
            }
            try (ReadTxn txn = consumer.store.read()) {
                assertNull(txn.tombstone(((ReplicaChange.Upsert) annAsSent).uuid()), "trimmed with its log record");
            }
        }
    }

    @Test
    void aConsumersOwnSuffixGivesWayInPlaceToTheProvidersNewerOne(@TempDir Path a, @TempDir Path b) {
        try (ReplicaMember consumer = new ReplicaMember(b, 2)) {
            consumer.add(Ldif.BASE);
            try (ReplicaMember provider = new ReplicaMember(a, 1)) {
                provider.add(Ldif.BASE + PEOPLE_LDIF);
                long suffixId = consumer.find("dc=example,dc=com").id();

                consumer.apply(provider.fullRefresh());

                assertEquals(suffixId, consumer.find("dc=example,dc=com").id(), "replaced in place");
                assertEquals(provider.contents(), consumer.contents());
            }
        }
    }

    /**
     * slapd keeps no tombstones: a modify that reaches it after it deleted the entry adds the entry
     * back. So when a provider deletes an entry this server changed since the provider's last cookie
     * (a change the deleter had not seen, which is on its way to it), the delete is logged as this
     * server's own change and follows that change to the provider, which deletes the entry again.
     */
    @Test
    void aDeleteOfAnEntryChangedHereThatTheDeleterHadNotSeenIsPassedOnAsThisServersOwn(
            @TempDir Path a, @TempDir Path b) {
        try (ReplicaMember provider = new ReplicaMember(a, 1);
                ReplicaMember consumer = new ReplicaMember(b, 2)) {
            provider.add(Ldif.BASE + PEOPLE_LDIF);
            consumer.apply(provider.fullRefresh());

            consumer.modify(ANN, "description", "changed here, not seen by the provider yet");
            consumer.apply(provider.delete(ANN));

            assertNull(consumer.find(ANN), "the delete wins");
            LoggedChange unseen = consumer.lastLogged();
            assertEquals(LoggedChange.Kind.DELETE, unseen.kind());
            assertEquals(2, Csn.fromBytes(unseen.csn()).sid(), "logged as this server's change: " + unseen);

            consumer.modify(BOB, "description", "changed here, then seen by the provider");
            Csn seen = StoredStamps.csn(consumer.find(BOB));
            // The provider's cookie names that change: it had applied it when it deleted the entry.
            CsnVector providerState = provider.context().merge(CsnVector.of(seen));
            consumer.apply(new ReplicaChange.NewCookie(new SyncCookie(ReplicaMember.RID, 1, providerState)));
            consumer.apply(provider.delete(BOB));

            assertNull(consumer.find(BOB), "the delete wins");
            LoggedChange known = consumer.lastLogged();
            assertEquals(LoggedChange.Kind.DELETE, known.kind());
            assertEquals(1, Csn.fromBytes(known.csn()).sid(), "logged with the provider's CSN: " + known);
        }
    }

    private static byte[] uuidOf(ReplicaMember member, String dn) {
        return StoredStamps.uuid(member.find(dn));
    }
}
