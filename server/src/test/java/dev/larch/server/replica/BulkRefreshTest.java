package dev.larch.server.replica;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.entry.StoredStamps;
import dev.larch.server.store.BulkLoad;
import dev.larch.server.testing.Ldif;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A first refresh into an empty store, loaded in bulk ({@link BulkRefresh}), through {@link StoreReplica}. */
class BulkRefreshTest {
    private static final String UID = "0.9.2342.19200300.100.1.1";
    private static final String ANN = "uid=ann,ou=People,dc=example,dc=com";
    private static final String BOB = "uid=bob,ou=People,dc=example,dc=com";
    private static final String TREE = Ldif.BASE + """
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

            dn: cn=staff,ou=Groups,dc=example,dc=com
            objectClass: groupOfNames
            cn: staff
            member: uid=ann,ou=People,dc=example,dc=com

            """;

    @Test
    void theEntriesOfAFirstRefreshAreIndexedAndGivenMemberOfOnlyWhenTheBatchStoringTheCookieComes(
            @TempDir Path a, @TempDir Path b) {
        try (ReplicaMember provider = new ReplicaMember(a, 1);
                ReplicaMember consumer = new ReplicaMember(b, 2).keepingMemberOf()) {
            provider.add(TREE);
            List<ReplicaChange> refresh = refreshOf(provider);

            consumer.apply(allButLast(refresh));

            assertTrue(consumer.store.loadingInBulk(), "the refresh is loading in bulk");
            assertEquals(provider.entryCount(), consumer.entryCount(), "every entry is in");
            assertEquals(List.of(), consumer.indexed(UID, "ann"), "its index records wait to be sorted in");
            assertNull(memberOf(consumer, ANN), "memberOf waits for the member index");

            consumer.apply(refresh.getLast());

            assertFalse(consumer.store.loadingInBulk());
            assertEquals(List.of(consumer.find(ANN).id()), consumer.indexed(UID, "ann"));
            assertEquals(List.of(consumer.find(BOB).id()), consumer.indexed(UID, "bob"));
            assertEquals(List.of("cn=staff,ou=Groups,dc=example,dc=com"), memberOf(consumer, ANN));
            assertNull(memberOf(consumer, BOB));
            assertEquals(provider.contents(), consumer.contents());
            assertEquals(provider.context(), consumer.replica.storedCookie().csns());
        }
    }

    @Test
    void aDeleteInTheMiddleOfTheLoadEndsItAndIsAppliedOnTheOrdinaryPath(@TempDir Path a, @TempDir Path b) {
        try (ReplicaMember provider = new ReplicaMember(a, 1);
                ReplicaMember consumer = new ReplicaMember(b, 2).keepingMemberOf()) {
            provider.add(TREE);
            List<ReplicaChange> refresh = refreshOf(provider);
            consumer.apply(allButLast(refresh));
            byte[] bob = StoredStamps.uuid(consumer.find(BOB));

            consumer.apply(new ReplicaChange.Deleted(bob, BOB, null));

            assertFalse(consumer.store.loadingInBulk(), "the load ended before the delete");
            assertNull(consumer.find(BOB));
            assertEquals(List.of(), consumer.indexed(UID, "bob"), "the index holds no record of the deleted entry");
            assertEquals(List.of(consumer.find(ANN).id()), consumer.indexed(UID, "ann"));
            assertEquals(List.of("cn=staff,ou=Groups,dc=example,dc=com"), memberOf(consumer, ANN));
        }
    }

    @Test
    void anEntrySentTwiceEndsTheLoadAndIsStoredOnce(@TempDir Path a, @TempDir Path b) {
        try (ReplicaMember provider = new ReplicaMember(a, 1);
                ReplicaMember consumer = new ReplicaMember(b, 2)) {
            provider.add(TREE);
            List<ReplicaChange> refresh = refreshOf(provider);
            ReplicaChange ann = refresh.stream()
                    .filter(c -> c instanceof ReplicaChange.Upsert u
                            && u.entry().getDn().getName().equals(ANN))
                    .findFirst()
                    .orElseThrow();
            consumer.apply(allButLast(refresh));

            consumer.apply(ann, refresh.getLast());

            assertFalse(consumer.store.loadingInBulk());
            assertEquals(provider.contents(), consumer.contents());
            assertEquals(List.of(consumer.find(ANN).id()), consumer.indexed(UID, "ann"));
        }
    }

    @Test
    void aLoadStoppedMidwayLeavesAStoreThatTheNextOpenEmptiesForTheRefreshToStartOver(
            @TempDir Path a, @TempDir Path b) {
        try (ReplicaMember provider = new ReplicaMember(a, 1)) {
            provider.add(TREE);
            List<ReplicaChange> refresh = refreshOf(provider);
            try (ReplicaMember stopped = new ReplicaMember(b, 2)) {
                stopped.apply(allButLast(refresh));
            }
            try (ReplicaMember restarted = new ReplicaMember(b, 2)) {
                assertEquals(provider.entryCount(), BulkLoad.emptyIfRefreshInterrupted(restarted.store));
                assertEquals(0, restarted.entryCount());
                assertNull(restarted.replica.storedCookie());
                assertEquals(-1, BulkLoad.emptyIfRefreshInterrupted(restarted.store), "the mark went with them");

                restarted.apply(refresh);

                assertEquals(provider.contents(), restarted.contents());
                assertEquals(List.of(restarted.find(ANN).id()), restarted.indexed(UID, "ann"));
            }
        }
    }

    @Test
    void aRefreshIntoAStoreThatHoldsEntriesTakesTheOrdinaryPath(@TempDir Path a, @TempDir Path b) {
        try (ReplicaMember provider = new ReplicaMember(a, 1);
                ReplicaMember consumer = new ReplicaMember(b, 2)) {
            provider.add(TREE);
            consumer.add(Ldif.BASE);
            List<ReplicaChange> refresh = refreshOf(provider);

            consumer.apply(allButLast(refresh));

            assertFalse(consumer.store.loadingInBulk());
            assertEquals(List.of(consumer.find(ANN).id()), consumer.indexed(UID, "ann"));
        }
    }

    /**
     * A full refresh as providers send it: the entries without cookies of their own (slapd and Larch
     * send one only when the phase ends).
     */
    private static List<ReplicaChange> refreshOf(ReplicaMember provider) {
        List<ReplicaChange> sent = new ArrayList<>();
        for (ReplicaChange change : provider.fullRefresh()) {
            sent.add(
                    change instanceof ReplicaChange.Upsert u
                            ? new ReplicaChange.Upsert(u.uuid(), u.entry(), null)
                            : change);
        }
        return sent;
    }

    private static List<ReplicaChange> allButLast(List<ReplicaChange> changes) {
        return new ArrayList<>(changes.subList(0, changes.size() - 1));
    }

    /** The memberOf values of {@code dn} on {@code member}; null when it has none. */
    private static List<String> memberOf(ReplicaMember member, String dn) {
        StoredEntry entry = member.find(dn);
        StoredAttribute values = entry.attribute(Directory.MEMBER_OF_OID);
        if (values == null) {
            return null;
        }
        List<String> out = new ArrayList<>();
        for (byte[] v : values.values()) {
            out.add(new String(v, UTF_8));
        }
        return out;
    }
}
