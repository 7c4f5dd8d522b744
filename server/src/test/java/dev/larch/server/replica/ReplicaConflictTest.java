package dev.larch.server.replica;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;

import dev.larch.server.entry.StoredEntry;
import dev.larch.server.store.LoggedChange;
import dev.larch.server.testing.Ldif;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Two members of a multi-provider set make conflicting changes at once, then each is fed the other's
 * (as its provider side would send them, the deletes of conflict losers included): both end with the
 * same tree, whichever change came first. The rules are docs/operations.md's (replication).
 */
class ReplicaConflictTest {
    private static final String PEOPLE = "ou=People,dc=example,dc=com";
    private static final String ANN = "uid=ann," + PEOPLE;
    private static final String CY = "uid=cy," + PEOPLE;

    @ParameterizedTest(name = "a first: {0}")
    @ValueSource(booleans = {true, false})
    void aModifyAgainstAModifyEndsWithTheHigherEntryCsnOnBothMembers(boolean aFirst, @TempDir Path a, @TempDir Path b) {
        try (ReplicaMember memberA = new ReplicaMember(a, 1);
                ReplicaMember memberB = new ReplicaMember(b, 2)) {
            seed(memberA, memberB);
            ReplicaChange[] changes = inOrder(
                    aFirst,
                    () -> memberA.modify(ANN, "description", "from a"),
                    () -> memberB.modify(ANN, "description", "from b"));

            exchange(memberA, changes[0], memberB, changes[1]);

            assertEquals(memberA.contents(), memberB.contents());
            assertEquals(aFirst ? "from b" : "from a", description(memberA.find(ANN)), "the later modify wins");
        }
    }

    @ParameterizedTest(name = "a first: {0}")
    @ValueSource(booleans = {true, false})
    void aDeleteAgainstAModifyDeletesTheEntryOnBothMembers(boolean aFirst, @TempDir Path a, @TempDir Path b) {
        try (ReplicaMember memberA = new ReplicaMember(a, 1);
                ReplicaMember memberB = new ReplicaMember(b, 2)) {
            seed(memberA, memberB);
            ReplicaChange[] changes =
                    inOrder(aFirst, () -> memberA.delete(ANN), () -> memberB.modify(ANN, "description", "from b"));

            exchange(memberA, changes[0], memberB, changes[1]);

            assertNull(memberA.find(ANN));
            assertNull(memberB.find(ANN));
            assertEquals(memberA.contents(), memberB.contents());
        }
    }

    @ParameterizedTest(name = "a first: {0}")
    @ValueSource(booleans = {true, false})
    void aRenameAgainstAModifyEndsWithTheWholeEntryOfTheHigherCsn(boolean aFirst, @TempDir Path a, @TempDir Path b) {
        try (ReplicaMember memberA = new ReplicaMember(a, 1);
                ReplicaMember memberB = new ReplicaMember(b, 2)) {
            seed(memberA, memberB);
            ReplicaChange[] changes = inOrder(
                    aFirst, () -> memberA.rename(ANN, "uid=anne"), () -> memberB.modify(ANN, "description", "from b"));

            exchange(memberA, changes[0], memberB, changes[1]);

            assertEquals(memberA.contents(), memberB.contents());
            if (aFirst) {
                assertEquals("from b", description(memberA.find(ANN)), "the later modify, under the old DN");
                assertNull(memberA.find("uid=anne," + PEOPLE));
            } else {
                assertNull(memberA.find(ANN));
                assertNotNull(memberA.find("uid=anne," + PEOPLE), "the later rename, without the modify");
                assertNull(description(memberA.find("uid=anne," + PEOPLE)));
            }
        }
    }

    @ParameterizedTest(name = "a first: {0}")
    @ValueSource(booleans = {true, false})
    void twoAddsOfOneDnKeepTheEntryWithTheHigherCsnOnBothMembers(boolean aFirst, @TempDir Path a, @TempDir Path b) {
        try (ReplicaMember memberA = new ReplicaMember(a, 1);
                ReplicaMember memberB = new ReplicaMember(b, 2)) {
            seed(memberA, memberB);
            ReplicaChange[] changes = inOrder(aFirst, () -> addCy(memberA, "from a"), () -> addCy(memberB, "from b"));

            exchange(memberA, changes[0], memberB, changes[1]);

            assertEquals(memberA.contents(), memberB.contents());
            assertEquals(aFirst ? "from b" : "from a", description(memberA.find(CY)));
        }
    }

    @ParameterizedTest(name = "a first: {0}")
    @ValueSource(booleans = {true, false})
    void aDeleteOfAParentAgainstAnAddBelowItDeletesBothOnBothMembers(boolean aFirst, @TempDir Path a, @TempDir Path b) {
        try (ReplicaMember memberA = new ReplicaMember(a, 1);
                ReplicaMember memberB = new ReplicaMember(b, 2)) {
            seed(memberA, memberB);
            memberB.apply(memberA.add("""
                    dn: ou=Temp,dc=example,dc=com
                    objectClass: organizationalUnit
                    ou: Temp
                    """));
            ReplicaChange[] changes = inOrder(
                    aFirst,
                    () -> memberA.delete("ou=Temp,dc=example,dc=com"),
                    () -> memberB.add("""
                            dn: uid=dee,ou=Temp,dc=example,dc=com
                            objectClass: inetOrgPerson
                            uid: dee
                            cn: Dee
                            sn: D
                            """).get(0));

            exchange(memberA, changes[0], memberB, changes[1]);

            assertNull(memberA.find("uid=dee,ou=Temp,dc=example,dc=com"));
            assertNull(memberB.find("ou=Temp,dc=example,dc=com"));
            assertEquals(memberA.contents(), memberB.contents());
        }
    }

    /** Member A holds the base and ann; B receives them by a full refresh. */
    private static void seed(ReplicaMember memberA, ReplicaMember memberB) {
        memberA.add(Ldif.BASE + """
                dn: uid=ann,ou=People,dc=example,dc=com
                objectClass: inetOrgPerson
                uid: ann
                cn: Ann
                sn: A
                """);
        memberB.apply(memberA.fullRefresh());
        assertEquals(memberA.contents(), memberB.contents());
    }

    private static ReplicaChange addCy(ReplicaMember member, String description) {
        return member.add("""
                dn: uid=cy,ou=People,dc=example,dc=com
                objectClass: inetOrgPerson
                uid: cy
                cn: Cy
                sn: C
                description: %s
                """.formatted(description)).get(0);
    }

    /** Makes A's change and B's change, A's first or B's first; returns them as {A's, B's}. */
    private static ReplicaChange[] inOrder(boolean aFirst, Supplier<ReplicaChange> ofA, Supplier<ReplicaChange> ofB) {
        ReplicaChange[] changes = new ReplicaChange[2];
        if (aFirst) {
            changes[0] = ofA.get();
            changes[1] = ofB.get();
        } else {
            changes[1] = ofB.get();
            changes[0] = ofA.get();
        }
        return changes;
    }

    /**
     * Feeds each member the other's change, then the deletes each made of conflict losers meanwhile
     * (which replicate as any delete).
     */
    private static void exchange(ReplicaMember memberA, ReplicaChange ofA, ReplicaMember memberB, ReplicaChange ofB) {
        LoggedChange lastA = memberA.lastLogged();
        LoggedChange lastB = memberB.lastLogged();
        memberB.apply(ofA);
        memberA.apply(ofB);
        List<ReplicaChange> deletesOfA = memberA.deletesSince(lastA.csn());
        List<ReplicaChange> deletesOfB = memberB.deletesSince(lastB.csn());
        if (!deletesOfA.isEmpty()) {
            memberB.apply(deletesOfA);
        }
        if (!deletesOfB.isEmpty()) {
            memberA.apply(deletesOfB);
        }
    }

    private static String description(StoredEntry entry) {
        var values = entry.attribute("2.5.4.13");
        return values == null ? null : new String(values.values()[0], UTF_8);
    }
}
