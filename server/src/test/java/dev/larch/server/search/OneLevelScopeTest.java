package dev.larch.server.search;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import dev.larch.server.entry.StoredEntry;
import dev.larch.server.store.IdSet;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.testing.Ldif;
import dev.larch.server.testing.TestTree;
import org.apache.directory.api.ldap.model.message.SearchScope;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A one-level search under a parent with many children reads only what its answer needs: an indexed
 * filter's candidates, each checked for its parent, and a walk of the children no further than the
 * entries taken from it.
 */
class OneLevelScopeTest {
    private static final String UNIT = "ou=Unit,ou=People,dc=example,dc=com";
    private static final String SMALL = "ou=Small,ou=People,dc=example,dc=com";
    private static final int CHILDREN = 5_000;

    @TempDir
    static Path dir;

    static TestTree tree;

    @BeforeAll
    static void load() {
        tree = new TestTree(dir)
                .add(Ldif.BASE)
                .add(Ldif.bulkUnit(UNIT, CHILDREN, i -> "d"))
                .add(Ldif.bulkUnit(SMALL, 13, i -> "d"));
    }

    @AfterAll
    static void close() {
        tree.close();
    }

    private static SearchCursor cursor(ReadTxn txn, String filterText) {
        Filter filter = tree.filter(filterText);
        IdSet candidates = tree.planner.plan(txn, filter).ids();
        long unit = tree.directory.require(txn, tree.schemaNormalizer.dn(UNIT));
        return new SearchCursor(tree.directory, txn, unit, SearchScope.ONELEVEL, filter, candidates, 0);
    }

    @Test
    void anIndexedEqualityUnderAParentOfThousandsOfChildrenExaminesOnlyItsCandidate() {
        try (ReadTxn txn = tree.store.read();
                SearchCursor cursor = cursor(txn, "(uid=u0042)")) {
            StoredEntry found = cursor.next();
            assertNotNull(found);
            assertEquals("uid=u0042," + UNIT, found.dn());
            assertNull(cursor.next());
            assertEquals(1, cursor.examined());
        }
    }

    @Test
    void anUnindexedOneLevelSearchStreamsTheChildrenAndReadsNoFurtherThanTheEntriesTaken() {
        try (ReadTxn txn = tree.store.read();
                SearchCursor cursor = cursor(txn, "(objectClass=*)")) {
            for (int i = 0; i < 10; i++) {
                assertNotNull(cursor.next());
            }
            assertEquals(10, cursor.examined(), "a size limit of 10 stops after 10 children");
        }
    }

    @Test
    void aBroadIndexedFilterUnderASmallParentWalksItsChildrenInsteadOfReadingEveryCandidate() {
        AtomicLong steps = new AtomicLong();
        SearchBudget budget = new SearchBudget(0, 0, null, () -> steps.incrementAndGet() < 0, System::nanoTime);
        try (ReadTxn txn = tree.store.read()) {
            // sn S12, S120..S129 and S1200..S1299 under ou=Unit, and S12 under ou=Small (S0..S12):
            // 112 candidates, one of them among ou=Small's 13 children.
            Filter filter = tree.filter("(sn=S12*)");
            IdSet candidates = tree.planner.plan(txn, filter, budget).ids();
            assertTrue(candidates.size() > SearchCursor.FEW_CANDIDATES, candidates.size() + " candidates");
            long small = tree.directory.require(txn, tree.schemaNormalizer.dn(SMALL));
            steps.set(0);
            try (SearchCursor cursor = new SearchCursor(
                            tree.directory, txn, small, SearchScope.ONELEVEL, filter, candidates, budget)
                    .walkingChildrenWhenFewer()) {
                List<String> found = new ArrayList<>();
                for (StoredEntry e = cursor.next(); e != null; e = cursor.next()) {
                    found.add(e.dn());
                }
                assertEquals(List.of("uid=u0012," + SMALL), found);
                assertEquals(1, cursor.examined());
            }
            assertEquals(13, steps.get(), "one step per child of ou=Small, none per other candidate");
        }
    }
}
