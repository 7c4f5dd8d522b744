package dev.larch.server.directory;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import dev.larch.config.IndexKind;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.testing.Ldif;
import dev.larch.server.testing.TestTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The references into a subtree, found by walking it or by scanning the index: the same records. */
class SubtreeNamesTest {
    private static final String MEMBER = "2.5.4.31";
    private static final String PEOPLE = "ou=People,dc=example,dc=com";
    private static final String UNIT = "ou=Unit," + PEOPLE;

    private static TestTree tree(Path dir) {
        Map<String, Set<IndexKind>> indexes = new HashMap<>(TestTree.DEFAULT_INDEXES);
        indexes.put(MEMBER, Set.of(IndexKind.EQUALITY));
        return new TestTree(dir, indexes, 1000)
                .add(Ldif.BASE)
                .add(Ldif.bulkUnit(UNIT, 50, i -> "d"))
                .add("dn: ou=Sub," + UNIT + "\nobjectClass: organizationalUnit\nou: Sub\n\n"
                        + "dn: uid=deep,ou=Sub," + UNIT + "\nobjectClass: inetOrgPerson\nuid: deep\ncn: d\nsn: d\n\n"
                        + "dn: cn=g1,ou=Groups,dc=example,dc=com\nobjectClass: groupOfNames\ncn: g1\n"
                        + "member: uid=u0003," + UNIT + "\n"
                        + "member: uid=deep,ou=Sub," + UNIT + "\n"
                        + "member: uid=nobody," + UNIT + "\n" // no such entry
                        + "member: " + UNIT + "\n" // the root itself: not below it
                        + "member: uid=u0003,ou=Unitx," + PEOPLE + "\n" // ends like it, in another unit
                        + "member: cn=a\\,ou=Unit," + PEOPLE + "\n\n"); // an escaped comma, under People
    }

    private static Set<SubtreeNames.Named> found(SubtreeNames names) {
        return new HashSet<>(names.below(MEMBER));
    }

    @Test
    void theWalkAndTheScanFindTheSameReferencesToEntriesBelowTheRoot(@TempDir Path dir) {
        try (TestTree tree = tree(dir);
                ReadTxn txn = tree.store.read()) {
            long unit = tree.directory.require(txn, tree.schemaNormalizer.dn(UNIT));
            List<String> root = List.of(tree.schemaNormalizer.dn(UNIT).getNormName());
            SubtreeNames walk = new SubtreeNames(txn, unit, root, List.of(MEMBER), Long.MAX_VALUE);
            SubtreeNames scan = new SubtreeNames(txn, unit, root, List.of(MEMBER), 0);
            Set<SubtreeNames.Named> walked = found(walk);
            Set<SubtreeNames.Named> scanned = found(scan);
            assertEquals(2, walked.size(), walked.toString());
            assertTrue(scanned.containsAll(walked), scanned + " holds " + walked);
            Set<SubtreeNames.Named> onlyScanned = new HashSet<>(scanned);
            onlyScanned.removeAll(walked);
            assertEquals(1, onlyScanned.size(), "the scan also finds the name no entry has: " + onlyScanned);
            assertTrue(onlyScanned.iterator().next().relativeName().contains("nobody"), onlyScanned.toString());
            assertEquals(52, walk.walked());
            assertEquals(0, walk.scanned());
            assertEquals(6, scan.scanned(), "the scan read each record of the index once");
            assertEquals(0, scan.walked());
        }
    }

    @Test
    void theWalkFindsEveryReferenceUnderEachOfTheRootsNamesAsTheScanDoes(@TempDir Path dir) {
        String renamed = "ou=Renamed," + PEOPLE;
        StringBuilder group =
                new StringBuilder("dn: cn=g2,ou=Groups,dc=example,dc=com\nobjectClass: groupOfNames\ncn: g2\n");
        for (int i = 0; i < 50; i += 7) {
            group.append("member: uid=u")
                    .append(String.format(Locale.ROOT, "%04d", i))
                    .append(',')
                    .append(UNIT)
                    .append('\n');
            group.append("member: uid=u")
                    .append(String.format(Locale.ROOT, "%04d", i))
                    .append(',')
                    .append(renamed)
                    .append('\n');
        }
        try (TestTree tree = tree(dir).add(group.append('\n').toString());
                ReadTxn txn = tree.store.read()) {
            long unit = tree.directory.require(txn, tree.schemaNormalizer.dn(UNIT));
            List<String> roots = List.of(
                    tree.schemaNormalizer.dn(UNIT).getNormName(),
                    tree.schemaNormalizer.dn(renamed).getNormName());
            Set<SubtreeNames.Named> walked = found(new SubtreeNames(txn, unit, roots, List.of(MEMBER), Long.MAX_VALUE));
            Set<SubtreeNames.Named> scanned = found(new SubtreeNames(txn, unit, roots, List.of(MEMBER), 0));
            // g1's two under the old name, g2's eight under each name; the scan adds g1's name no entry has
            assertEquals(2 + 8 + 8, walked.size(), walked.toString());
            assertEquals(8, walked.stream().filter(n -> n.root() == 1).count(), walked.toString());
            Set<SubtreeNames.Named> onlyScanned = new HashSet<>(scanned);
            onlyScanned.removeAll(walked);
            assertTrue(scanned.containsAll(walked), scanned + " holds " + walked);
            assertEquals(1, onlyScanned.size(), onlyScanned.toString());
        }
    }

    @Test
    void aSubtreeLargerThanTheIndexIsNotWalkedButTheIndexScanned(@TempDir Path dir) {
        try (TestTree tree = tree(dir);
                ReadTxn txn = tree.store.read()) {
            long unit = tree.directory.require(txn, tree.schemaNormalizer.dn(UNIT));
            List<String> root = List.of(tree.schemaNormalizer.dn(UNIT).getNormName());
            SubtreeNames judged = new SubtreeNames(txn, unit, root, List.of(MEMBER));
            assertEquals(3, found(judged).size());
            assertEquals(6, judged.scanned(), "every record of the member index, once");
            assertTrue(judged.walked() <= 6, "the walk stopped early: " + judged.walked() + " of 52 read");
        }
    }
}
