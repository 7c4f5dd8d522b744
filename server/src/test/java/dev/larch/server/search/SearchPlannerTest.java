package dev.larch.server.search;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import dev.larch.server.error.ResultCodeException;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.testing.Ldif;
import dev.larch.server.testing.TestTree;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.SearchScope;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The planner, table-driven: for each filter, the DNs a subtree search from the suffix returns and
 * the plan the planner made for it. The explanation and the candidate IDs come from the same call,
 * so the table checks what searches really do.
 */
class SearchPlannerTest {
    private static final String SUFFIX = "dc=example,dc=com";

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

    static String dn(String uid) {
        return "uid=" + uid + ",ou=People," + SUFFIX;
    }

    static Stream<Arguments> filters() {
        return Stream.of(
                Arguments.of("(cn=john DOE)", List.of(dn("jdoe")), "eq(cn)"),
                Arguments.of("(telephoneNumber=+15550100)", List.of(dn("jdoe")), "scan"),
                Arguments.of("(sn=Smi*)", List.of(dn("asmith"), dn("bsmith")), "eq-prefix(sn)"),
                Arguments.of("(cn=*smith*)", List.of(dn("asmith"), dn("bsmith")), "sub(cn)"),
                Arguments.of("(cn=*ers)", List.of(dn("bsmith")), "sub(cn)"),
                Arguments.of("(cn=a*ce*ith)", List.of(dn("asmith")), "sub(cn)"),
                Arguments.of("(telephoneNumber=*)", List.of(dn("jdoe"), dn("asmith")), "pres(telephoneNumber)"),
                // Six inetOrgPersons are already few enough: the AND leaves sn to the filter.
                Arguments.of(
                        "(&(objectClass=inetOrgPerson)(sn=Smith))",
                        List.of(dn("asmith")),
                        "and[eq(objectClass), +1 unread]"),
                Arguments.of("(|(uid=jdoe)(uid=asmith))", List.of(dn("jdoe"), dn("asmith")), "or[eq(uid), eq(uid)]"),
                // One unindexed term makes the whole OR a walk of the scope.
                Arguments.of("(|(uid=jdoe)(description=x))", List.of(dn("jdoe")), "or[eq(uid), scan]"),
                // A >= and a <= of one attribute are one bounded read of the ordering index, in
                // either order.
                Arguments.of(
                        "(&(createTimestamp>=20200101000000Z)(createTimestamp<=20251231235959Z))",
                        List.of(dn("carl"), dn("dave")),
                        "and[range(createTimestamp)]"),
                Arguments.of(
                        "(&(createTimestamp<=20200101000000Z)(uid=*)(createTimestamp>=20190101000000Z))",
                        List.of(dn("carl"), dn("eve")),
                        "and[range(createTimestamp), +1 unread]"),
                // Two upper bounds are not a range.
                Arguments.of(
                        "(&(createTimestamp<=20251231235959Z)(createTimestamp<=20200101000000Z))",
                        List.of(dn("carl"), dn("eve")),
                        "and[ord(createTimestamp), +1 unread]"),
                Arguments.of("(createTimestamp<=20191231235959Z)", List.of(dn("eve")), "ord(createTimestamp)"),
                // RFC 4519 gives sn and uidNumber no ordering rule: such items are Undefined.
                Arguments.of("(sn>=Smith)", List.of(), "empty(sn has no ordering rule)"),
                Arguments.of("(uidNumber>=1000)", List.of(), "empty(uidNumber has no ordering rule)"),
                Arguments.of("(cn~=john doe)", List.of(dn("jdoe")), "eq(cn)"),
                Arguments.of("(cn:caseExactMatch:=John Doe)", List.of(dn("jdoe")), "scan"),
                Arguments.of("(cn:caseExactMatch:=john doe)", List.of(), "scan"),
                Arguments.of("(name=Doe)", List.of(dn("jdoe")), "scan"),
                // name stands for cn, sn and its other subtypes: grams of several OIDs are not read.
                Arguments.of("(name=*ohn*)", List.of(dn("jdoe")), "scan"),
                Arguments.of(
                        "(member=UID=jdoe, ou=people,dc=EXAMPLE,dc=com)",
                        List.of("cn=staff,ou=Groups,dc=example,dc=com"),
                        "scan"),
                Arguments.of("(foo=bar)", List.of(), "empty(unknown attribute foo)"),
                Arguments.of("(!(foo=bar))", List.of(), "scan"),
                Arguments.of("(&(uid=jdoe)(!(sn=Smith)))", List.of(dn("jdoe")), "and[eq(uid), +1 unread]"),
                Arguments.of("(&(!(sn=Smith))(description=*))", List.of(), "and[scan, scan]"),
                Arguments.of("(description=*)", List.of(), "scan"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("filters")
    void subtreeSearchFindsExactlyTheMatchesAndThePlanSaysHow(String filter, List<String> expected, String plan) {
        assertEquals(sorted(expected), sorted(tree.search(SUFFIX, SearchScope.SUBTREE, filter)));
        try (ReadTxn txn = tree.store.read()) {
            Plan actual = tree.planner.plan(txn, tree.filter(filter));
            assertEquals(plan, actual.explanation());
            if (actual.usesIndexes()) {
                for (String match : expected) {
                    long id = tree.directory.require(txn, tree.schemaNormalizer.dn(match));
                    assertTrue(actual.ids().contains(id), () -> "candidates miss " + match);
                }
            }
        }
    }

    @Test
    void aKeyAboveTheIndexEntryLimitCountsAsNotIndexed(@TempDir Path other) {
        try (TestTree small = smallTreeWithEntryLimitTwo(other);
                ReadTxn txn = small.store.read()) {
            Plan common = small.planner.plan(txn, small.filter("(objectClass=inetOrgPerson)"));
            assertFalse(common.usesIndexes());
            assertEquals("eq(objectClass) over limit", common.explanation());
            assertEquals(
                    1, small.planner.plan(txn, small.filter("(uid=a)")).ids().size());
        }
        try (TestTree small = smallTreeWithEntryLimitTwo(other.resolve("again"))) {
            assertEquals(
                    3,
                    small.search(SUFFIX, SearchScope.SUBTREE, "(objectClass=inetOrgPerson)")
                            .size());
        }
    }

    @Test
    void gramsAboveTheIndexEntryLimitAreSkippedAndTheOthersStillNarrow(@TempDir Path other) {
        try (TestTree small = smallTreeWithEntryLimitTwo(other);
                ReadTxn txn = small.store.read()) {
            // " do" and "doe" are in all three names, over the limit; "na " and "a d" only in Anna's.
            Plan narrowed = small.planner.plan(txn, small.filter("(cn=*na doe*)"));
            assertEquals("sub(cn)", narrowed.explanation());
            assertEquals(1, narrowed.ids().size());
            Plan allCommon = small.planner.plan(txn, small.filter("(cn=*doe*)"));
            assertEquals("sub(cn) over limit", allCommon.explanation());
            assertFalse(allCommon.usesIndexes());
        }
    }

    @Test
    void anOrOfManyTermsStopsAtTheIndexShareOfTheBudgetNotAfterReadingThemAll() {
        // Each term finds nothing, but each read costs one: 5,000 reads are 5x the share of 1,000.
        Filter manyTerms = tree.filter(orOf(5_000, "uid=missing%d"));
        SearchBudget budget = new SearchBudget(50, 0, null, () -> false, System::nanoTime);
        try (ReadTxn txn = tree.store.read()) {
            ResultCodeException e =
                    assertThrows(ResultCodeException.class, () -> tree.planner.plan(txn, manyTerms, budget));
            assertEquals(ResultCodeEnum.ADMIN_LIMIT_EXCEEDED, e.code());
            assertTrue(e.getMessage().contains("(limits.look-through-limit)"), e.getMessage());
        }
        assertEquals(1_000, budget.indexIdsRead(), "the share is max(look-through, index entry limit)");
    }

    @Test
    void aKeyHoldingUpToTheIndexEntryLimitIsReadEvenWithATinyLookThroughLimit() {
        try (ReadTxn txn = tree.store.read()) {
            int people = tree.planner
                    .plan(txn, tree.filter("(objectClass=inetOrgPerson)"))
                    .ids()
                    .size();
            SearchPlanner exactlyAtTheLimit = new SearchPlanner(tree.store, people);
            SearchBudget budget = new SearchBudget(1, 0, null, () -> false, System::nanoTime);
            Plan plan = exactlyAtTheLimit.plan(txn, tree.filter("(objectClass=inetOrgPerson)"), budget);
            assertEquals(people, plan.ids().size());
            assertEquals(people, budget.indexIdsRead());
        }
    }

    @Test
    void anAndWithCandidatesLeavesATermUnreadRatherThanOverspendTheIndexShare(@TempDir Path other) {
        StringBuilder people = new StringBuilder(Ldif.BASE);
        for (int i = 0; i < 40; i++) {
            people.append(Ldif.person("p" + i, "p" + i, "Same", null));
        }
        try (TestTree many = new TestTree(other).add(people.toString());
                ReadTxn txn = many.store.read()) {
            // An index entry limit of 40 and a look-through limit of 1 make a share of 40 IDs: the
            // first key spends it all, and the second would have failed the search.
            SearchPlanner planner = new SearchPlanner(many.store, 40);
            SearchBudget budget = new SearchBudget(1, 0, null, () -> false, System::nanoTime);
            Plan plan = planner.plan(txn, many.filter("(&(sn=Same)(objectClass=inetOrgPerson))"), budget);
            assertEquals("and[eq(sn), +1 unread]", plan.explanation());
            assertEquals(40, plan.ids().size());
        }
    }

    @Test
    void theDeadlineStopsALongPlan() {
        AtomicLong clock = new AtomicLong();
        // Every look at the clock advances it by one; the deadline is 100 looks away.
        SearchBudget budget = new SearchBudget(0, 100, "time limit", () -> false, clock::incrementAndGet);
        Filter manyTerms = tree.filter(orOf(5_000, "uid=missing%d"));
        try (ReadTxn txn = tree.store.read()) {
            ResultCodeException e =
                    assertThrows(ResultCodeException.class, () -> tree.planner.plan(txn, manyTerms, budget));
            assertEquals(ResultCodeEnum.TIME_LIMIT_EXCEEDED, e.code());
        }
        assertEquals(99, budget.indexIdsRead());
    }

    @Test
    void abandonStopsALongPlan() {
        AtomicInteger checks = new AtomicInteger();
        SearchBudget budget = new SearchBudget(0, 0, null, () -> checks.incrementAndGet() > 20, System::nanoTime);
        Filter manyTerms = tree.filter(orOf(5_000, "cn=missing%d*"));
        try (ReadTxn txn = tree.store.read()) {
            ResultCodeException e =
                    assertThrows(ResultCodeException.class, () -> tree.planner.plan(txn, manyTerms, budget));
            assertEquals(ResultCodeEnum.CANCELED, e.code());
        }
        assertEquals(20, budget.indexIdsRead());
    }

    @Test
    void anOrOfManyTermsFindsTheUnionOfTheirMatches() {
        StringBuilder filter = new StringBuilder("(|");
        for (int i = 0; i < 500; i++) {
            filter.append("(uid=missing").append(i).append(')');
        }
        filter.append("(uid=eve)(uid=jdoe)(cn=*smith*)(uid=jdoe))");
        assertEquals(
                sorted(List.of(dn("jdoe"), dn("asmith"), dn("bsmith"), dn("eve"))),
                sorted(tree.search(SUFFIX, SearchScope.SUBTREE, filter.toString())));
    }

    /** {@code (|...)} of {@code terms} terms, the i-th being {@code term} formatted with i. */
    private static String orOf(int terms, String term) {
        StringBuilder out = new StringBuilder("(|");
        for (int i = 0; i < terms; i++) {
            out.append('(').append(String.format(Locale.ROOT, term, i)).append(')');
        }
        return out.append(')').toString();
    }

    private static TestTree smallTreeWithEntryLimitTwo(Path dir) {
        return new TestTree(dir, TestTree.DEFAULT_INDEXES, 2)
                .add(Ldif.BASE
                        + Ldif.person("a", "Anna Doe", "Doe", null)
                        + Ldif.person("b", "Bert Doe", "Doe", null)
                        + Ldif.person("c", "Cleo Doe", "Doe", null));
    }

    private static List<String> sorted(List<String> l) {
        return l.stream().sorted().toList();
    }
}
