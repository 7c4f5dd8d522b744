package dev.larch.server.group;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

import dev.larch.config.IndexKind;
import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.search.GroupGraph;
import dev.larch.server.store.DnKeys;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.store.WriteTxn;
import dev.larch.server.testing.TestTree;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.SearchScope;
import org.apache.directory.api.ldap.model.name.Dn;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Stored memberOf kept in the write transaction of every kind of change that can alter it. */
class MemberOfMaintainerTest {
    static final String S = "dc=example,dc=com";
    static final String MEMBER_OF = Directory.MEMBER_OF_OID;

    @TempDir
    Path dir;

    TestTree tree;

    @BeforeEach
    void open() {
        Map<String, Set<IndexKind>> indexes = new HashMap<>(TestTree.DEFAULT_INDEXES);
        indexes.put("2.5.4.31", Set.of(IndexKind.EQUALITY)); // member
        indexes.put("2.5.4.50", Set.of(IndexKind.EQUALITY)); // uniqueMember
        indexes.put(MEMBER_OF, Set.of(IndexKind.EQUALITY));
        tree = new TestTree(dir, indexes, 1000);
        maintain(MemberOfMaintainer.MAX_AFFECTED);
        tree.add("dn: " + S + "\nobjectClass: domain\ndc: example\n\n"
                + "dn: ou=people," + S + "\nobjectClass: organizationalUnit\nou: people\n\n"
                + "dn: ou=groups," + S + "\nobjectClass: organizationalUnit\nou: groups\n\n"
                + person("ann") + person("bob") + person("cat"));
    }

    private void maintain(int bound) {
        tree.directory.maintainMemberOf(new MemberOfMaintainer(
                tree.directory, new GroupGraph(tree.directory, tree.compiler, tree.planner), bound));
    }

    @AfterEach
    void close() {
        tree.close();
    }

    static String p(String uid) {
        return "uid=" + uid + ",ou=people," + S;
    }

    static String g(String cn) {
        return "cn=" + cn + ",ou=groups," + S;
    }

    static String person(String uid) {
        return "dn: " + p(uid) + "\nobjectClass: inetOrgPerson\nuid: " + uid + "\ncn: " + uid + "\nsn: " + uid + "\n\n";
    }

    static String group(String cn, String... members) {
        StringBuilder out = new StringBuilder("dn: " + g(cn) + "\nobjectClass: groupOfNames\ncn: " + cn + "\n");
        for (String m : members) {
            out.append("member: ").append(m).append('\n');
        }
        return out.append('\n').toString();
    }

    /** The stored memberOf values of {@code dn}. */
    Set<String> memberOf(String dn) {
        try (ReadTxn txn = tree.store.read()) {
            StoredEntry e = tree.directory.load(txn, tree.directory.require(txn, tree.schemaNormalizer.dn(dn)));
            StoredAttribute a = e.attribute(MEMBER_OF);
            Set<String> out = new TreeSet<>();
            if (a != null) {
                for (byte[] v : a.values()) {
                    out.add(new String(v, UTF_8));
                }
            }
            return out;
        }
    }

    /** Changes the entry at {@code dn} in one transaction. */
    void modify(String dn, Consumer<Entry> change) {
        try (WriteTxn txn = tree.store.write()) {
            StoredEntry before = tree.directory.load(txn, tree.directory.require(txn, tree.schemaNormalizer.dn(dn)));
            Entry entry = tree.schemaNormalizer.toEntry(before);
            change.accept(entry);
            tree.directory.replace(txn, before, entry);
            txn.commit();
        }
    }

    static Consumer<Entry> addMember(String member) {
        return e -> {
            try {
                e.add("member", member);
            } catch (LdapException x) {
                throw new IllegalStateException(x);
            }
        };
    }

    static Consumer<Entry> removeMember(String member) {
        return e -> {
            try {
                e.remove("member", member);
            } catch (LdapException x) {
                throw new IllegalStateException(x);
            }
        };
    }

    void delete(String dn) {
        try (WriteTxn txn = tree.store.write()) {
            tree.directory.delete(
                    txn, tree.directory.load(txn, tree.directory.require(txn, tree.schemaNormalizer.dn(dn))));
            txn.commit();
        }
    }

    /** Renames the leaf {@code dn} to {@code newDn} under the same parent. */
    void rename(String dn, String newDn) {
        try (WriteTxn txn = tree.store.write()) {
            StoredEntry before = tree.directory.load(txn, tree.directory.require(txn, tree.schemaNormalizer.dn(dn)));
            Entry entry = tree.schemaNormalizer.toEntry(before);
            Dn to = tree.schemaNormalizer.dn(newDn);
            entry.setDn(to);
            try {
                entry.add(
                        to.getRdn().getAva().getAttributeType(),
                        to.getRdn().getAva().getValue());
            } catch (LdapException x) {
                throw new IllegalStateException(x);
            }
            tree.directory.move(txn, before, before.parentId(), entry);
            txn.commit();
        }
    }

    @Test
    void theImportPassFindsEveryNamedEntryOnceInIdOrder() {
        tree.add(group("late", p("cat"), p("bob"), p("ann"), "uid=gone,ou=people," + S)
                + group("early", p("bob"), p("cat")));
        try (ReadTxn txn = tree.store.read()) {
            MemberOfMaintainer maintainer =
                    new MemberOfMaintainer(tree.directory, new GroupGraph(tree.directory, tree.compiler, tree.planner));
            List<Long> expected = List.of(id(txn, p("ann")), id(txn, p("bob")), id(txn, p("cat")));
            assertEquals(
                    expected, maintainer.namedByGroups(txn), "ascending IDs, each once, the absent member left out");
        }
    }

    private long id(ReadTxn txn, String dn) {
        return tree.directory.require(txn, tree.schemaNormalizer.dn(dn));
    }

    @Test
    void addingAGroupGivesItsMembersAndTheirNestedMembersItsDn() {
        tree.add(group("inner", p("ann")) + group("outer", g("inner"), p("bob")));
        assertEquals(Set.of(g("inner"), g("outer")), memberOf(p("ann")));
        assertEquals(Set.of(g("outer")), memberOf(p("bob")));
        assertEquals(Set.of(g("outer")), memberOf(g("inner")));
        assertEquals(Set.of(), memberOf(p("cat")));
        assertEquals(Set.of(), memberOf(g("outer")));
    }

    @Test
    void anEntryAddedAfterTheGroupsNamingItGainsThem() {
        tree.add(group("outer", g("inner")) + group("inner", p("dan")));
        tree.add(person("dan"));
        assertEquals(Set.of(g("inner"), g("outer")), memberOf(p("dan")));
        assertEquals(Set.of(g("outer")), memberOf(g("inner")));
    }

    @Test
    void deletingAGroupTakesItFromItsMembersAndTheirNestedMembers() {
        tree.add(group("inner", p("ann")) + group("outer", g("inner"), p("bob")));
        delete(g("outer"));
        assertEquals(Set.of(g("inner")), memberOf(p("ann")));
        assertEquals(Set.of(), memberOf(p("bob")));
        assertEquals(Set.of(), memberOf(g("inner")));
    }

    @Test
    void modifyingMembersUpdatesOnlyTheEntriesThatJoinedOrLeft() {
        tree.add(group("inner", p("ann")) + group("outer", p("bob")));
        modify(g("outer"), addMember(g("inner")));
        assertEquals(Set.of(g("inner"), g("outer")), memberOf(p("ann")));
        modify(g("outer"), removeMember(g("inner")));
        assertEquals(Set.of(g("inner")), memberOf(p("ann")));
        assertEquals(Set.of(g("outer")), memberOf(p("bob")));
        // replace: bob leaves, cat joins
        modify(g("outer"), e -> {
            try {
                e.removeAttributes("member");
                e.add("member", p("cat"));
            } catch (LdapException x) {
                throw new IllegalStateException(x);
            }
        });
        assertEquals(Set.of(), memberOf(p("bob")));
        assertEquals(Set.of(g("outer")), memberOf(p("cat")));
    }

    @Test
    void aMemberStillHeldThroughAnotherPathKeepsTheGroup() {
        tree.add(group("inner", p("ann")) + group("outer", g("inner"), p("ann")));
        modify(g("outer"), removeMember(p("ann")));
        assertEquals(Set.of(g("inner"), g("outer")), memberOf(p("ann")));
    }

    @Test
    void renamingAGroupRenamesItInItsMembersAndNestedMembers() {
        tree.add(group("inner", p("ann")) + group("outer", g("inner")));
        rename(g("outer"), g("top"));
        assertEquals(Set.of(g("inner"), g("top")), memberOf(p("ann")));
        assertEquals(Set.of(g("top")), memberOf(g("inner")));
    }

    @Test
    void renamingANestedGroupWithoutRewritingItsHoldersDropsTheOuterGroup() {
        // Without referential integrity outer still names the old DN, so inner's members leave
        // outer: the stored values follow what the groups say, as the read-time walk did.
        tree.add(group("inner", p("ann")) + group("outer", g("inner")));
        rename(g("inner"), g("renamed"));
        assertEquals(Set.of(g("renamed")), memberOf(p("ann")));
        modify(g("outer"), addMember(g("renamed")));
        assertEquals(Set.of(g("renamed"), g("outer")), memberOf(p("ann")));
    }

    @Test
    void aRenamedMemberIsRecomputedUnderItsNewName() {
        tree.add(group("all", p("ann")));
        rename(p("ann"), p("anna"));
        assertEquals(Set.of(), memberOf(p("anna"))); // no group names the new DN (no integrity here)
        modify(g("all"), addMember(p("anna")));
        assertEquals(Set.of(g("all")), memberOf(p("anna")));
    }

    @Test
    void aCycleOfGroupsEndsAndNoGroupIsItsOwnMember() {
        tree.add(group("g1", p("ann"), g("g3")) + group("g2", g("g1")) + group("g3", g("g2")));
        assertEquals(Set.of(g("g1"), g("g2"), g("g3")), memberOf(p("ann")));
        assertEquals(Set.of(g("g2"), g("g3")), memberOf(g("g1")));
        assertEquals(Set.of(g("g1"), g("g3")), memberOf(g("g2")));
        modify(g("g1"), removeMember(g("g3")));
        assertEquals(Set.of(g("g1"), g("g2"), g("g3")), memberOf(p("ann")));
        assertEquals(Set.of(g("g2"), g("g3")), memberOf(g("g1")));
        assertEquals(Set.of(g("g3")), memberOf(g("g2")));
        assertEquals(Set.of(), memberOf(g("g3")));
    }

    @Test
    void anAbortedWriteLeavesMemberOfAsItWas() {
        tree.add(group("all", p("ann")));
        try (WriteTxn txn = tree.store.write()) {
            StoredEntry before =
                    tree.directory.load(txn, tree.directory.require(txn, tree.schemaNormalizer.dn(g("all"))));
            Entry entry = tree.schemaNormalizer.toEntry(before);
            addMember(p("bob")).accept(entry);
            removeMember(p("ann")).accept(entry);
            tree.directory.replace(txn, before, entry);
            // closed without commit
        }
        assertEquals(Set.of(g("all")), memberOf(p("ann")));
        assertEquals(Set.of(), memberOf(p("bob")));
    }

    @Test
    void theMemberOfIndexFindsTheStoredValues() {
        tree.add(group("inner", p("ann")) + group("outer", g("inner")));
        try (ReadTxn txn = tree.store.read()) {
            byte[] key = DnKeys.reverse(
                    tree.schemaNormalizer.dn(g("outer")).getNormName().getBytes(UTF_8));
            assertEquals(2, txn.count(MEMBER_OF, IndexKind.EQUALITY, key));
        }
        assertEquals(
                Set.of(p("ann"), g("inner")),
                new TreeSet<>(tree.search(S, SearchScope.SUBTREE, "(memberOf=" + g("outer") + ")")));
        assertEquals(
                Set.of(p("ann")),
                new TreeSet<>(tree.search(
                        S,
                        SearchScope.SUBTREE,
                        "(&(objectClass=person)(memberOf:1.2.840.113556.1.4.1941:=" + g("outer") + "))")));
    }

    @Test
    void aChangeAffectingMoreEntriesThanTheBoundIsRefusedAndChangesNothing() {
        maintain(2);
        IllegalStateException failed =
                assertThrows(IllegalStateException.class, () -> tree.add(group("all", p("ann"), p("bob"), p("cat"))));
        ResultCodeException refused = assertInstanceOf(ResultCodeException.class, failed.getCause());
        assertEquals(ResultCodeEnum.ADMIN_LIMIT_EXCEEDED, refused.code());
        assertEquals(Set.of(), memberOf(p("ann")));
        assertEquals(List.of(), tree.search(S, SearchScope.SUBTREE, "(cn=all)"));
    }
}
