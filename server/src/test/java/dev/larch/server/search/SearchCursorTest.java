package dev.larch.server.search;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import dev.larch.server.entry.StoredEntry;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.store.IdSet;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.testing.Ldif;
import dev.larch.server.testing.TestTree;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.SearchScope;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The cursor keeps to the search's scope, with and without indexed candidates, and stops at the
 * first step past its budget.
 */
class SearchCursorTest {
    private static final String SUFFIX = "dc=example,dc=com";
    private static final String PEOPLE = "ou=People," + SUFFIX;

    @TempDir
    static Path dir;

    static TestTree tree;

    @BeforeAll
    static void load() {
        tree = new TestTree(dir).add(Ldif.PEOPLE_AND_GROUP);
    }

    @AfterAll
    static void close() {
        tree.close();
    }

    @Test
    void extensibleMatchWithDnAttributesMatchesRdnValues() {
        assertEquals(
                6,
                tree.search(SUFFIX, SearchScope.SUBTREE, "(ou:dn:=People)").stream()
                        .filter(d -> d.startsWith("uid="))
                        .count());
    }

    @Test
    void baseScopeReturnsOnlyTheBase() {
        assertEquals(List.of(PEOPLE), tree.search(PEOPLE, SearchScope.OBJECT, "(objectClass=*)"));
    }

    @Test
    void oneLevelScopeReturnsOnlyChildren() {
        assertEquals(
                6, tree.search(PEOPLE, SearchScope.ONELEVEL, "(objectClass=*)").size());
        assertEquals(
                List.of("ou=People," + SUFFIX, "ou=Groups," + SUFFIX),
                tree.search(SUFFIX, SearchScope.ONELEVEL, "(objectClass=organizationalUnit)"));
    }

    @Test
    void subtreeSearchNeverLeavesItsBase() {
        assertEquals(
                sorted(List.of("ou=Groups," + SUFFIX, "cn=staff,ou=Groups," + SUFFIX)),
                sorted(tree.search("ou=Groups," + SUFFIX, SearchScope.SUBTREE, "(objectClass=*)")));
        assertEquals(
                List.of("cn=staff,ou=Groups," + SUFFIX),
                tree.search("ou=Groups," + SUFFIX, SearchScope.SUBTREE, "(cn=staff)"));
        assertEquals(List.of(), tree.search("ou=Groups," + SUFFIX, SearchScope.SUBTREE, "(uid=jdoe)"));
    }

    @Test
    void indexedCandidatesOutsideAOneLevelScopeAreDropped() {
        assertEquals(List.of(), tree.search(SUFFIX, SearchScope.ONELEVEL, "(uid=jdoe)"));
    }

    @Test
    void aWalkStopsAtTheLookThroughLimitAndStaysStopped() {
        SearchBudget budget = new SearchBudget(3, 0, null, () -> false, System::nanoTime);
        try (ReadTxn txn = tree.store.read();
                SearchCursor cursor = unindexedWalk(txn, budget)) {
            ResultCodeException e = assertThrows(ResultCodeException.class, cursor::next);
            assertEquals(ResultCodeEnum.ADMIN_LIMIT_EXCEEDED, e.code());
            assertTrue(e.getMessage().contains("(limits.look-through-limit)"), e.getMessage());
            assertEquals(4, cursor.examined(), "stops at the first entry past the limit");
            assertSame(e, assertThrows(ResultCodeException.class, cursor::next));
            assertEquals(4, cursor.examined());
        }
    }

    @Test
    void theDeadlineStopsAWalkOfNonMatchingEntries() {
        AtomicLong clock = new AtomicLong();
        // Each look at the clock advances it by one; the deadline is 5 looks away.
        SearchBudget budget = new SearchBudget(0, 5, "time limit", () -> false, clock::incrementAndGet);
        try (ReadTxn txn = tree.store.read();
                SearchCursor cursor = unindexedWalk(txn, budget)) {
            ResultCodeException e = assertThrows(ResultCodeException.class, cursor::next);
            assertEquals(ResultCodeEnum.TIME_LIMIT_EXCEEDED, e.code());
            assertEquals(4, cursor.examined());
        }
    }

    @Test
    void abandonStopsTheCursorEvenAmongCandidatesOutsideTheScope() {
        AtomicBoolean abandoned = new AtomicBoolean();
        SearchBudget budget = new SearchBudget(0, 0, null, abandoned::get, System::nanoTime);
        try (ReadTxn txn = tree.store.read()) {
            Filter people = tree.filter("(objectClass=inetOrgPerson)");
            IdSet candidates = tree.planner.plan(txn, people, budget).ids();
            abandoned.set(true);
            // Every person is below ou=People, none one level below the suffix: nothing is examined.
            try (SearchCursor cursor = new SearchCursor(
                    tree.directory, txn, id(txn, SUFFIX), SearchScope.ONELEVEL, people, candidates, budget)) {
                assertEquals(
                        ResultCodeEnum.CANCELED,
                        assertThrows(ResultCodeException.class, cursor::next).code());
                assertEquals(0, cursor.examined());
            }
        }
    }

    @Test
    void candidatesOutsideTheScopeAreNotCountedAsExamined() {
        SearchBudget budget = new SearchBudget(1, 0, null, () -> false, System::nanoTime);
        try (ReadTxn txn = tree.store.read()) {
            Filter people = tree.filter("(objectClass=inetOrgPerson)");
            IdSet candidates = tree.planner.plan(txn, people, budget).ids();
            assertTrue(candidates.size() > 1);
            try (SearchCursor cursor = new SearchCursor(
                    tree.directory, txn, id(txn, SUFFIX), SearchScope.ONELEVEL, people, candidates, budget)) {
                assertNull(cursor.next());
                assertEquals(0, cursor.examined());
            }
        }
    }

    @Test
    void aWalkOfTheWholeTreeInIdOrderReturnsEveryEntryOnceAndResumesAfterAnId() {
        SearchBudget budget = new SearchBudget(0, 0, null, () -> false, System::nanoTime);
        Filter everything = tree.filter("(!(description=nothing like this))"); // no index answers a NOT
        try (ReadTxn txn = tree.store.read()) {
            long suffix = id(txn, SUFFIX);
            List<StoredEntry> all =
                    drain(new SearchCursor(tree.directory, txn, suffix, SearchScope.SUBTREE, everything, null, budget)
                            .walkingInIdOrder());
            List<Long> ids = all.stream().map(StoredEntry::id).toList();
            assertEquals(ids.stream().sorted().toList(), ids, "ascending IDs");
            assertEquals(
                    sorted(tree.search(SUFFIX, SearchScope.SUBTREE, "(!(description=nothing like this))")),
                    sorted(all.stream().map(StoredEntry::dn).toList()),
                    "the entries of the walk in tree order, with their DNs");
            assertTrue(ids.size() > 3);

            ResumePoint afterThird = new ResumePoint(ids.get(2), new long[0], new byte[0][], null);
            List<StoredEntry> rest = drain(new SearchCursor(
                            tree.directory,
                            txn,
                            suffix,
                            SearchScope.SUBTREE,
                            everything,
                            null,
                            budget,
                            EntryScreen.ALL,
                            afterThird)
                    .walkingInIdOrder());
            assertEquals(
                    ids.subList(3, ids.size()),
                    rest.stream().map(StoredEntry::id).toList());
        }
    }

    private static List<StoredEntry> drain(SearchCursor cursor) {
        List<StoredEntry> out = new ArrayList<>();
        try (cursor) {
            for (StoredEntry e = cursor.next(); e != null; e = cursor.next()) {
                out.add(e);
            }
        }
        return out;
    }

    /** A subtree walk from the suffix for a filter no entry matches and no index answers. */
    private static SearchCursor unindexedWalk(ReadTxn txn, SearchBudget budget) {
        return new SearchCursor(
                tree.directory,
                txn,
                id(txn, SUFFIX),
                SearchScope.SUBTREE,
                tree.filter("(description=nothing like this)"),
                null,
                budget);
    }

    private static long id(ReadTxn txn, String dn) {
        return tree.directory.require(txn, tree.schemaNormalizer.dn(dn));
    }

    private static List<String> sorted(List<String> l) {
        return l.stream().sorted().toList();
    }
}
