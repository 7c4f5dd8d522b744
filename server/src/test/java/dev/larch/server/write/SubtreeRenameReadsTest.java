package dev.larch.server.write;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import dev.larch.config.IndexKind;
import dev.larch.server.directory.Directory;
import dev.larch.server.directory.SchemaChecker;
import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.group.MemberOfMaintainer;
import dev.larch.server.search.GroupGraph;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.store.WriteTxn;
import dev.larch.server.testing.Ldif;
import dev.larch.server.testing.TestTree;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.message.SearchScope;
import org.apache.directory.api.ldap.model.name.Dn;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A modify DN of an entry with many descendants, as {@link ModifyDnHandler} does it with referential
 * integrity and stored memberOf kept: the references to the few descendants groups name, and the
 * memberOf values naming a group among the descendants, are rewritten, and no other descendant is
 * read one by one.
 */
class SubtreeRenameReadsTest {
    private static final String S = "dc=example,dc=com";
    private static final String UNIT = "ou=Unit,ou=People," + S;
    private static final String MOVED = "ou=Moved,ou=Groups," + S;
    private static final int PEOPLE = 2_000;

    private static TestTree tree(Path dir) {
        Map<String, Set<IndexKind>> indexes = new HashMap<>(TestTree.DEFAULT_INDEXES);
        indexes.put("2.5.4.31", Set.of(IndexKind.EQUALITY)); // member
        indexes.put("2.5.4.50", Set.of(IndexKind.EQUALITY)); // uniqueMember
        indexes.put(Directory.MEMBER_OF_OID, Set.of(IndexKind.EQUALITY));
        TestTree tree = new TestTree(dir, indexes, 1000);
        tree.directory.maintainMemberOf(
                new MemberOfMaintainer(tree.directory, new GroupGraph(tree.directory, tree.compiler, tree.planner)));
        return tree.add(Ldif.BASE)
                .add(Ldif.bulkUnit(UNIT, PEOPLE, i -> "d"))
                .add("dn: uid=ann,ou=People," + S + "\nobjectClass: inetOrgPerson\nuid: ann\ncn: a\nsn: a\n\n"
                        // a group outside the subtree naming two entries inside it
                        + "dn: cn=outside,ou=Groups," + S + "\nobjectClass: groupOfNames\ncn: outside\n"
                        + "member: uid=u0003," + UNIT + "\nmember: uid=u0004," + UNIT + "\n\n"
                        // a group inside it naming one entry outside and one inside
                        + "dn: cn=inside," + UNIT + "\nobjectClass: groupOfNames\ncn: inside\n"
                        + "member: uid=ann,ou=People," + S + "\nmember: uid=u0005," + UNIT + "\n\n");
    }

    /** Referential integrity on member and uniqueMember, with no unique attributes. */
    private static Integrity integrity(TestTree tree) {
        return new Integrity(
                tree.directory,
                tree.compiler,
                tree.planner,
                new SchemaChecker(tree.schema),
                List.of("member", "uniqueMember"),
                List.of());
    }

    /** Moves the unit below ou=Groups as ModifyDnHandler does; returns the descendants referred to. */
    private static int moveUnit(TestTree tree, Integrity integrity) {
        return move(tree, integrity, UNIT, MOVED);
    }

    /** Moves {@code from} to {@code to} (both RDNs ou=) as ModifyDnHandler does; returns the descendants referred to. */
    private static int move(TestTree tree, Integrity integrity, String from, String to) {
        try (WriteTxn txn = tree.store.write()) {
            long unit = tree.directory.require(txn, tree.schemaNormalizer.dn(from));
            StoredEntry before = tree.directory.load(txn, unit);
            Entry entry = tree.schemaNormalizer.toEntry(before);
            Dn toDn = tree.schemaNormalizer.dn(to);
            entry.setDn(toDn);
            entry.add("ou", toDn.getRdn().getValue());
            long groups = tree.directory.require(txn, toDn.getParent());
            StoredEntry after = tree.directory.move(txn, before, groups, entry);
            tree.directory.subtreeRenamed(txn, unit, before.dn(), after.dn());
            Dn admin = tree.directory.administrator();
            integrity.referencesMoved(
                    txn, tree.schemaNormalizer.dn(before.dn()), tree.schemaNormalizer.dn(after.dn()), admin);
            int referred = integrity.referencesMovedBelow(txn, before.dn(), after.dn(), admin);
            txn.commit();
            return referred;
        } catch (LdapException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Set<String> values(TestTree tree, String dn, String attribute) {
        try (ReadTxn txn = tree.store.read()) {
            StoredEntry e = tree.directory.load(txn, tree.directory.require(txn, tree.schemaNormalizer.dn(dn)));
            StoredAttribute a =
                    e.attribute(tree.schema.getAttributeType(attribute).getOid());
            Set<String> out = new TreeSet<>();
            if (a != null) {
                for (byte[] v : a.values()) {
                    out.add(new String(v, UTF_8));
                }
            }
            return out;
        }
    }

    @Test
    void aMovedSubtreesReferencesAndMemberOfFollowWithoutReadingEveryDescendant(@TempDir Path dir) {
        try (TestTree tree = tree(dir)) {
            Integrity integrity = integrity(tree);
            assertEquals(Set.of("cn=inside," + UNIT), values(tree, "uid=ann,ou=People," + S, "memberOf"));

            assertEquals(3, moveUnit(tree, integrity), "u0003 and u0004 named from outside, u0005 from inside");
            assertEquals(0, tree.directory.renamedDescendantsRead(), "no descendant was read one by one");

            assertEquals(
                    Set.of("uid=u0003," + MOVED, "uid=u0004," + MOVED),
                    values(tree, "cn=outside,ou=Groups," + S, "member"));
            assertEquals(Set.of("cn=outside,ou=Groups," + S), values(tree, "uid=u0003," + MOVED, "memberOf"));
            assertEquals(Set.of("cn=inside," + MOVED), values(tree, "uid=ann,ou=People," + S, "memberOf"));
            assertEquals(Set.of("cn=inside," + MOVED), values(tree, "uid=u0005," + MOVED, "memberOf"));
            assertEquals(Set.of(), values(tree, "uid=u0006," + MOVED, "memberOf"));
            assertEquals(
                    List.of("uid=u0005," + MOVED),
                    tree.search(S, SearchScope.SUBTREE, "(memberOf=cn=inside," + MOVED + ")").stream()
                            .filter(dn -> !dn.startsWith("uid=ann"))
                            .toList());
            assertEquals(
                    PEOPLE + 2,
                    tree.search(MOVED, SearchScope.SUBTREE, "(objectClass=*)").size());
        }
    }

    @Test
    void aSubtreeMovedThereAndBackInTwoCommitsTakesItsReferencesAndMemberOfAlongEachTime(@TempDir Path dir) {
        try (TestTree tree = tree(dir)) {
            Integrity integrity = integrity(tree);
            String back = "ou=Back,ou=People," + S;
            assertEquals(3, move(tree, integrity, UNIT, MOVED));
            // the second rename finds the references the first one wrote, under their new names
            assertEquals(3, move(tree, integrity, MOVED, back));
            assertEquals(0, tree.directory.renamedDescendantsRead());
            assertEquals(
                    Set.of("uid=u0003," + back, "uid=u0004," + back),
                    values(tree, "cn=outside,ou=Groups," + S, "member"));
            assertEquals(
                    Set.of("uid=ann,ou=People," + S, "uid=u0005," + back), values(tree, "cn=inside," + back, "member"));
            assertEquals(Set.of("cn=outside,ou=Groups," + S), values(tree, "uid=u0004," + back, "memberOf"));
            assertEquals(Set.of("cn=inside," + back), values(tree, "uid=ann,ou=People," + S, "memberOf"));
            assertEquals(Set.of("cn=inside," + back), values(tree, "uid=u0005," + back, "memberOf"));
            assertEquals(
                    List.of("cn=outside,ou=Groups," + S),
                    tree.search(S, SearchScope.SUBTREE, "(member=uid=u0003," + back + ")"));
        }
    }

    @Test
    void withoutReferentialIntegrityTheMembersGroupsNoLongerNameLoseTheirMemberOf(@TempDir Path dir) {
        try (TestTree tree = tree(dir)) {
            assertEquals(Set.of("cn=outside,ou=Groups," + S), values(tree, "uid=u0003," + UNIT, "memberOf"));
            assertEquals(0, moveUnit(tree, Integrity.NONE), "no reference is kept");
            assertEquals(0, tree.directory.renamedDescendantsRead());
            assertEquals(Set.of(), values(tree, "uid=u0003," + MOVED, "memberOf"));
            assertEquals(Set.of("cn=inside," + MOVED), values(tree, "uid=ann,ou=People," + S, "memberOf"));
        }
    }
}
