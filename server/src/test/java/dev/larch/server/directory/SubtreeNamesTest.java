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

    /** {@code dn}'s normalized name without its root's, as a record names it. */
    private static String relative(TestTree tree, String dn, String root) {
        String name = tree.schemaNormalizer.dn(dn).getNormName();
        return name.substring(
                0, name.length() - tree.schemaNormalizer.dn(root).getNormName().length() - 1);
    }

    private static Set<String> relativeNames(Set<SubtreeNames.Named> found) {
        Set<String> out = new HashSet<>();
        found.forEach(n -> out.add(n.relativeName()));
        return out;
    }

    @Test
    void oneRangeReadFindsTheReferencesBelowTheRootWithoutReadingTheSubtree(@TempDir Path dir) {
        try (TestTree tree = tree(dir);
                ReadTxn txn = tree.store.read()) {
            List<String> root = List.of(tree.schemaNormalizer.dn(UNIT).getNormName());
            SubtreeNames names = new SubtreeNames(txn, tree.directory, root);
            Set<SubtreeNames.Named> found = found(names);
            // not the root itself, not the unit whose name ends like it, not the escaped comma
            assertEquals(
                    Set.of(
                            relative(tree, "uid=u0003," + UNIT, UNIT),
                            relative(tree, "uid=deep,ou=Sub," + UNIT, UNIT),
                            relative(tree, "uid=nobody," + UNIT, UNIT)),
                    relativeNames(found),
                    found.toString());
            assertEquals(3, names.read(), "the three records below the root, of the subtree's 52 entries none");
            assertEquals(0, names.loaded());
        }
    }

    @Test
    void theReferencesUnderEachOfTheRootsNamesAreFound(@TempDir Path dir) {
        String renamed = "ou=Renamed," + PEOPLE;
        StringBuilder group =
                new StringBuilder("dn: cn=g2,ou=Groups,dc=example,dc=com\nobjectClass: groupOfNames\ncn: g2\n");
        for (int i = 0; i < 50; i += 7) {
            for (String root : List.of(UNIT, renamed)) {
                group.append("member: uid=u")
                        .append(String.format(Locale.ROOT, "%04d", i))
                        .append(',')
                        .append(root)
                        .append('\n');
            }
        }
        try (TestTree tree = tree(dir).add(group.append('\n').toString());
                ReadTxn txn = tree.store.read()) {
            List<String> roots = List.of(
                    tree.schemaNormalizer.dn(UNIT).getNormName(),
                    tree.schemaNormalizer.dn(renamed).getNormName());
            Set<SubtreeNames.Named> found = found(new SubtreeNames(txn, tree.directory, roots));
            // g1's three under the old name, g2's eight under each name
            assertEquals(3 + 8 + 8, found.size(), found.toString());
            assertEquals(8, found.stream().filter(n -> n.root() == 1).count(), found.toString());
        }
    }

    @Test
    void aValueCutAtTheKeySizeIsReadFromTheEntryHoldingIt(@TempDir Path dir) {
        String longName = "uid=" + "x".repeat(600);
        try (TestTree tree = tree(dir)
                        .add("dn: cn=long,ou=Groups,dc=example,dc=com\nobjectClass: groupOfNames\n"
                                + "cn: long\nmember: " + longName + "," + UNIT + "\n"
                                + "member: " + longName + ",ou=Unitx," + PEOPLE + "\n"
                                + "member: uid=u0001," + UNIT + "\n\n");
                ReadTxn txn = tree.store.read()) {
            long group = tree.directory.require(txn, tree.schemaNormalizer.dn("cn=long,ou=Groups,dc=example,dc=com"));
            List<String> root = List.of(tree.schemaNormalizer.dn(UNIT).getNormName());
            SubtreeNames names = new SubtreeNames(txn, tree.directory, root);
            Set<SubtreeNames.Named> found = found(names);
            assertTrue(
                    found.contains(new SubtreeNames.Named(relative(tree, longName + "," + UNIT, UNIT), 0, group)),
                    found.toString());
            assertTrue(
                    found.contains(new SubtreeNames.Named(relative(tree, "uid=u0001," + UNIT, UNIT), 0, group)),
                    found.toString());
            assertEquals(
                    1,
                    found.stream().filter(n -> n.relativeName().length() > 600).count(),
                    found.toString());
            assertEquals(1, names.loaded(), "the group, once, for its cut key");
        }
    }

    @Test
    void aRootWhoseKeyPassesTheKeySizeStillFindsWhatIsBelowIt(@TempDir Path dir) {
        String deepUnit = "ou=" + "y".repeat(520) + "," + PEOPLE;
        // no entry has this name: its RDN alone would pass the DN index's key size
        try (TestTree tree = tree(dir)
                        .add("dn: cn=deep,ou=Groups,dc=example,dc=com\nobjectClass: groupOfNames\ncn: deep\n"
                                + "member: uid=a," + deepUnit + "\nmember: " + deepUnit + "\n\n");
                ReadTxn txn = tree.store.read()) {
            List<String> root = List.of(tree.schemaNormalizer.dn(deepUnit).getNormName());
            Set<SubtreeNames.Named> found = found(new SubtreeNames(txn, tree.directory, root));
            assertEquals(
                    Set.of(relative(tree, "uid=a," + deepUnit, deepUnit)),
                    relativeNames(found),
                    "the root itself is not below it");
        }
    }
}
