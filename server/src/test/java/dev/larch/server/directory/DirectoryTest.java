package dev.larch.server.directory;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.larch.config.IndexKind;
import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.store.WriteTxn;
import dev.larch.server.testing.Ldif;
import dev.larch.server.testing.TestTree;
import org.apache.directory.api.ldap.model.entry.DefaultEntry;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.SearchScope;
import org.apache.directory.api.ldap.model.message.controls.ChangeType;
import org.apache.directory.api.ldap.model.name.Dn;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DirectoryTest {
    private static final String PEOPLE = "ou=People,dc=example,dc=com";

    @Test
    void missingEntryReportsTheDeepestExistingAncestorAsMatchedDn(@TempDir Path dir) {
        try (TestTree tree = new TestTree(dir).add(Ldif.PEOPLE_AND_GROUP);
                ReadTxn txn = tree.store.read()) {
            ResultCodeException e = assertThrows(
                    ResultCodeException.class,
                    () -> tree.directory.require(txn, tree.schemaNormalizer.dn("uid=nobody,ou=Nowhere," + PEOPLE)));
            assertEquals(ResultCodeEnum.NO_SUCH_OBJECT, e.code());
            assertEquals(PEOPLE, e.matchedDn().getName());
        }
    }

    @Test
    void aParentDeletedAndAddedAgainIsResolvedAsEachSnapshotHasIt(@TempDir Path dir) {
        String unit = "ou=Unit," + PEOPLE;
        try (TestTree tree = new TestTree(dir).add(Ldif.BASE).add(Ldif.bulkUnit(unit, 2, i -> "d"))) {
            Dn person = tree.schemaNormalizer.dn("uid=u0001," + unit);
            try (ReadTxn old = tree.store.read()) {
                long oldId = tree.directory.resolve(old, person);
                assertTrue(oldId != ReadTxn.NOT_FOUND);
                try (WriteTxn txn = tree.store.write()) {
                    for (String gone : List.of("uid=u0000," + unit, "uid=u0001," + unit, unit)) {
                        tree.directory.delete(
                                txn,
                                tree.directory.load(txn, tree.directory.require(txn, tree.schemaNormalizer.dn(gone))));
                    }
                    txn.commit();
                }
                long newId;
                try (ReadTxn between = tree.store.read()) {
                    assertEquals(
                            ReadTxn.NOT_FOUND, tree.directory.resolve(between, person), "the cached parent is gone");
                }
                tree.add(Ldif.bulkUnit(unit, 2, i -> "d"));
                try (ReadTxn now = tree.store.read()) {
                    newId = tree.directory.resolve(now, person);
                    assertTrue(newId != ReadTxn.NOT_FOUND && newId != oldId, "the person added again has a new ID");
                    assertEquals(newId, tree.directory.resolve(now, person));
                }
                assertEquals(
                        oldId, tree.directory.resolve(old, person), "the old snapshot's person, past the new parent");
                try (ReadTxn now = tree.store.read()) {
                    assertEquals(newId, tree.directory.resolve(now, person), "and the new one's, past the old parent");
                    assertEquals(
                            ReadTxn.NOT_FOUND,
                            tree.directory.resolve(now, tree.schemaNormalizer.dn("uid=u0009," + unit)));
                }
            }
        }
    }

    @Test
    void theSuffixAndWhatIsBelowItAreHeldAndNothingElse(@TempDir Path dir) {
        try (TestTree tree = new TestTree(dir).add(Ldif.BASE)) {
            SchemaNormalizer names = tree.schemaNormalizer;
            for (String held : List.of(
                    "dc=example,dc=com",
                    "DC=Example, DC=COM",
                    "ou=People,dc=example,dc=com",
                    "cn=a\\,b+sn=c,ou=x\\,y,dc=example,dc=com",
                    "uid=jdoe,ou=People,dc=example,dc=com")) {
                assertTrue(tree.directory.holds(names.dn(held)), held);
            }
            for (String elsewhere : List.of(
                    "dc=com",
                    "dc=example,dc=org",
                    "dc=other,dc=com",
                    "cn=x\\,dc=example,dc=com",
                    // a value holding the suffix's text after a comma
                    "cn=y,cn=x\\,0.9.2342.19200300.100.1.25=example,dc=com",
                    "ou=People,dc=example\\,dc=com,dc=com",
                    "dc=example,dc=com,dc=net",
                    "")) {
                assertFalse(tree.directory.holds(names.dn(elsewhere)), elsewhere);
            }
        }
    }

    private static byte[] storedBytes(ReadTxn txn, long id) {
        ByteBuffer stored = txn.entry(id);
        byte[] bytes = new byte[stored.remaining()];
        stored.duplicate().get(bytes);
        return bytes;
    }

    @Test
    void memberOfIsRewrittenWithItsIndexKeysAndTheRestOfTheEntryAsItWas(@TempDir Path dir) {
        Map<String, Set<IndexKind>> indexes = new HashMap<>(TestTree.DEFAULT_INDEXES);
        indexes.put(Directory.MEMBER_OF_OID, Set.of(IndexKind.EQUALITY));
        String staff = "cn=Staff,ou=Groups,dc=example,dc=com";
        try (TestTree tree = new TestTree(dir, indexes, 1000).add(Ldif.BASE).add("""
                dn: uid=ann,ou=People,dc=example,dc=com
                objectClass: inetOrgPerson
                uid: ann
                cn: Ann
                sn: A
                telephoneNumber: +1 555 0100
                """)) {
            Dn ann = tree.schemaNormalizer.dn("uid=ann," + PEOPLE);
            StoredEntry before;
            try (WriteTxn txn = tree.store.write()) {
                before = tree.directory.load(txn, tree.directory.require(txn, ann));
                tree.directory.writeMemberOf(txn, before, List.of(staff, "CN=Sales , OU=Groups,DC=example,DC=com"));
                txn.commit();
            }
            assertEquals(
                    List.of("uid=ann," + PEOPLE),
                    tree.search(PEOPLE, SearchScope.SUBTREE, "(memberOf=cn=sales,ou=groups,dc=example,dc=com)"),
                    "found by the normalized form of a value spelled otherwise");
            try (ReadTxn txn = tree.store.read()) {
                StoredEntry after = tree.directory.load(txn, tree.directory.require(txn, ann));
                assertEquals(before.dn(), after.dn());
                assertEquals(before.attributes().size() + 1, after.attributes().size());
                for (StoredAttribute a : before.attributes()) {
                    assertEquals(a.userId(), after.attribute(a.oid()).userId());
                    assertArrayEquals(a.values(), after.attribute(a.oid()).values());
                }
                assertEquals(
                        staff,
                        new String(after.attribute(Directory.MEMBER_OF_OID).values()[0], UTF_8));
            }

            try (WriteTxn txn = tree.store.write()) {
                StoredEntry member = tree.directory.load(txn, tree.directory.require(txn, ann));
                tree.directory.writeMemberOf(txn, member, List.of());
                txn.commit();
            }
            assertEquals(List.of(), tree.search(PEOPLE, SearchScope.SUBTREE, "(memberOf=" + staff + ")"));
            try (ReadTxn txn = tree.store.read()) {
                StoredEntry after = tree.directory.load(txn, tree.directory.require(txn, ann));
                assertNull(after.attribute(Directory.MEMBER_OF_OID));
                assertEquals(before.attributes().size(), after.attributes().size());
            }
        }
    }

    @Test
    void anEntrysDnIsItsOwnRdnUnderItsParentsDnAsTheParentSpellsIt(@TempDir Path dir) throws LdapException {
        try (TestTree tree = new TestTree(dir).add(Ldif.BASE)) {
            StoredEntry added;
            try (WriteTxn txn = tree.store.write()) {
                Dn dn = tree.schemaNormalizer.dn("UID=Ann,OU=people,DC=Example,dc=com");
                Entry client =
                        new DefaultEntry(dn.getName(), "objectClass: inetOrgPerson", "uid: Ann", "cn: Ann", "sn: A");
                added = tree.newEntries.insert(txn, tree.newEntries.prepare(dn, client, true, Dn.EMPTY_DN));
                txn.commit();
            }
            try (ReadTxn txn = tree.store.read()) {
                long id = tree.directory.require(txn, tree.schemaNormalizer.dn("uid=ann," + PEOPLE));
                StoredEntry loaded = tree.directory.load(txn, id);
                assertEquals("UID=Ann," + PEOPLE, loaded.dn());
                assertEquals(loaded.dn(), added.dn(), "what insert returns is what a read gives");
                assertEquals(PEOPLE, tree.directory.dnOf(txn, loaded.parentId()));
                long suffix = tree.directory.require(txn, tree.directory.suffix());
                assertTrue(tree.directory.isWithin(txn, id, suffix));
                assertTrue(tree.directory.isWithin(txn, id, loaded.parentId()));
                assertFalse(tree.directory.isWithin(txn, loaded.parentId(), id));
            }
        }
    }

    @Test
    void aMoveRewritesTheMovedEntryAloneAndEveryDescendantFollows(@TempDir Path dir) {
        try (TestTree tree = new TestTree(dir).add(Ldif.BASE).add(Ldif.bulkUnit("ou=Unit," + PEOPLE, 20, i -> "d"))) {
            long unit;
            long person;
            byte[] personBefore;
            try (ReadTxn txn = tree.store.read()) {
                unit = tree.directory.require(txn, tree.schemaNormalizer.dn("ou=Unit," + PEOPLE));
                person = tree.directory.require(txn, tree.schemaNormalizer.dn("uid=u0005,ou=Unit," + PEOPLE));
                personBefore = storedBytes(txn, person);
            }
            String moved = "ou=Moved,ou=Groups,dc=example,dc=com";
            try (WriteTxn txn = tree.store.write()) {
                StoredEntry before = tree.directory.load(txn, unit);
                Entry after = tree.schemaNormalizer.toEntry(before);
                after.setDn(tree.schemaNormalizer.dn(moved));
                long groups = tree.directory.require(txn, tree.schemaNormalizer.dn("ou=Groups,dc=example,dc=com"));
                StoredEntry stored = tree.directory.move(txn, before, groups, after);
                assertEquals(moved, stored.dn());
                assertEquals(
                        0,
                        tree.directory.subtreeRenamed(txn, unit, before.dn(), stored.dn()),
                        "nobody needs the descendants one by one: none is read");
                txn.commit();
            }
            try (ReadTxn txn = tree.store.read()) {
                assertArrayEquals(personBefore, storedBytes(txn, person), "a descendant's record is not rewritten");
                assertEquals(
                        "uid=u0005," + moved, tree.directory.load(txn, person).dn());
                assertEquals(person, tree.directory.resolve(txn, tree.schemaNormalizer.dn("uid=u0005," + moved)));
                assertEquals(
                        ReadTxn.NOT_FOUND,
                        tree.directory.resolve(txn, tree.schemaNormalizer.dn("uid=u0005,ou=Unit," + PEOPLE)));
            }
            assertEquals(
                    21,
                    tree.search(moved, SearchScope.SUBTREE, "(objectClass=*)").size());
            assertEquals(
                    List.of("uid=u0007," + moved),
                    tree.search("dc=example,dc=com", SearchScope.SUBTREE, "(uid=u0007)"));
        }
    }

    @Test
    void aRenameTellsEachDescendantOnlyToAnObserverThatWantsRenamesOfDescendants(@TempDir Path dir) {
        try (TestTree tree = new TestTree(dir).add(Ldif.BASE).add(Ldif.bulkUnit("ou=Unit," + PEOPLE, 20, i -> "d"))) {
            List<String> told = new ArrayList<>();
            boolean[] wanted = {false};
            tree.directory.observe(new ChangeObserver() {
                @Override
                public void changed(WriteTxn txn, DirectoryChange change) {
                    if (change.csn() == null) {
                        told.add(change.previousDn() + " -> " + change.entry().dn());
                    }
                }

                @Override
                public boolean wants(DirectoryChange change) {
                    return wanted[0] && change.type() == ChangeType.MODDN && change.csn() == null;
                }

                @Override
                public void close() {}
            });
            assertEquals(0, renameUnit(tree, "ou=Unit," + PEOPLE, "ou=Moved," + PEOPLE));
            assertEquals(List.of(), told);
            wanted[0] = true;
            assertEquals(20, renameUnit(tree, "ou=Moved," + PEOPLE, "ou=Again," + PEOPLE));
            assertTrue(
                    told.contains("uid=u0005,ou=Moved," + PEOPLE + " -> uid=u0005,ou=Again," + PEOPLE),
                    told.toString());
            assertEquals(20, tree.directory.renamedDescendantsRead());
        }
    }

    /** Renames the unit at {@code from} to {@code to} under the same parent; the descendants read. */
    private static long renameUnit(TestTree tree, String from, String to) {
        try (WriteTxn txn = tree.store.write()) {
            long unit = tree.directory.require(txn, tree.schemaNormalizer.dn(from));
            StoredEntry before = tree.directory.load(txn, unit);
            Entry after = tree.schemaNormalizer.toEntry(before);
            after.setDn(tree.schemaNormalizer.dn(to));
            StoredEntry stored = tree.directory.move(txn, before, before.parentId(), after);
            long read = tree.directory.subtreeRenamed(txn, unit, before.dn(), stored.dn());
            txn.commit();
            return read;
        }
    }
}
