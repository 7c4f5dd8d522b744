package dev.larch.server.directory;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

import dev.larch.server.entry.AttributeCatalog;
import dev.larch.server.entry.EntryCodec;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.store.WriteTxn;
import dev.larch.server.testing.Ldif;
import dev.larch.server.testing.TestTree;
import org.apache.directory.api.ldap.model.entry.DefaultEntry;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** DNs rebuilt from the parent chain: cached within bounds, never across a rename's snapshots. */
class ParentChainTest {
    private static final String UNIT = "ou=Staff,dc=example,dc=com";

    @TempDir
    Path dir;

    private static TestTree tree(Path dir, int people) {
        return new TestTree(dir).add(Ldif.BASE).add(Ldif.bulkUnit(UNIT, people, i -> "d" + i));
    }

    private static long id(TestTree tree, ReadTxn txn, String dn) {
        return tree.directory.require(txn, tree.schemaNormalizer.dn(dn));
    }

    /** Renames {@code dn} to {@code newRdn} under the same parent, as a modify DN does. */
    private static void rename(TestTree tree, String dn, String newRdn) {
        try (WriteTxn txn = tree.store.write()) {
            long id = id(tree, txn, dn);
            StoredEntry before = tree.directory.load(txn, id);
            Entry after = tree.schemaNormalizer.toEntry(before);
            String newDn =
                    newRdn + "," + tree.schemaNormalizer.dn(dn).getParent().getName();
            after.setDn(tree.schemaNormalizer.dn(newDn));
            try {
                after.add(tree.schemaNormalizer.dn(newDn).getRdn().getAva().getType(), newRdn.substring(3));
            } catch (LdapException e) {
                throw new IllegalStateException(e);
            }
            tree.directory.move(txn, before, before.parentId(), after);
            txn.commit();
        }
    }

    @Test
    void onlyParentsAreCachedAndAnEntrysDnIsItsRdnUnderThem() {
        try (TestTree tree = tree(dir, 50)) {
            ParentChain chain = new ParentChain(ParentChain.DEFAULT_MAX_BYTES);
            try (ReadTxn txn = tree.store.read()) {
                long unit = id(tree, txn, UNIT);
                for (int i = 0; i < 50; i++) {
                    String dn = String.format(Locale.ROOT, "uid=u%04d,%s", i, UNIT);
                    StoredEntry person = tree.directory.load(txn, id(tree, txn, dn));
                    assertEquals(dn, person.dn());
                    assertEquals(UNIT, chain.dn(txn, person.parentId()));
                }
                assertEquals(2, chain.size(), "the unit and the suffix, not the people");
                assertEquals(
                        "dc=example,dc=com",
                        chain.node(txn, chain.node(txn, unit).parentId()).dn());
                assertNull(chain.dn(txn, 999_999), "no such entry");
            }
        }
    }

    @Test
    void theCacheStaysWithinItsBoundAndRefillsFromTheStore() {
        try (TestTree tree = tree(dir, 0)) {
            StringBuilder ldif = new StringBuilder();
            for (int i = 0; i < 40; i++) {
                ldif.append("dn: ou=u")
                        .append(i)
                        .append(',')
                        .append(UNIT)
                        .append("\nobjectClass: organizationalUnit\nou: u")
                        .append(i)
                        .append("\n\n");
            }
            tree.add(ldif.toString());
            long oneNode = ParentChain.BYTES_PER_NODE + (long) ParentChain.BYTES_PER_CHAR * ("ou=u10," + UNIT).length();
            ParentChain chain = new ParentChain(5 * oneNode);
            try (ReadTxn txn = tree.store.read()) {
                for (int i = 0; i < 40; i++) {
                    String dn = "ou=u" + i + "," + UNIT;
                    assertEquals(dn, chain.dn(txn, id(tree, txn, dn)));
                    assertTrue(chain.estimatedBytes() <= chain.maxBytes(), chain.estimatedBytes() + " bytes");
                    assertTrue(chain.size() <= 5, chain.size() + " nodes");
                }
            }
            ParentChain tiny = new ParentChain(ParentChain.BYTES_PER_NODE);
            ParentChain off = new ParentChain(0);
            try (ReadTxn txn = tree.store.read()) {
                assertEquals(UNIT, tiny.dn(txn, id(tree, txn, UNIT)));
                assertEquals(0, tiny.size(), "a node larger than the whole bound is not cached");
                assertEquals(UNIT, off.dn(txn, id(tree, txn, UNIT)));
                assertEquals(0, off.size());
            }
        }
    }

    @Test
    void aReaderThatBeganBeforeARenameKeepsTheOldDnsAndOneAfterItSeesTheNew() {
        try (TestTree tree = tree(dir, 3)) {
            Directory directory = tree.directory;
            long person;
            try (ReadTxn txn = tree.store.read()) {
                person = id(tree, txn, "uid=u0001," + UNIT);
                // Fills the directory's cache at the current generation.
                assertEquals("uid=u0001," + UNIT, directory.load(txn, person).dn());
            }
            try (ReadTxn old = tree.store.read()) {
                rename(tree, UNIT, "ou=Crew");
                try (ReadTxn fresh = tree.store.read()) {
                    assertEquals(
                            "uid=u0001,ou=Crew,dc=example,dc=com",
                            directory.load(fresh, person).dn());
                    // The cache now holds the new generation: the old reader must not use it...
                    assertEquals(
                            "uid=u0001," + UNIT, directory.load(old, person).dn());
                    // ...nor fill it with its old DNs for the new readers.
                    assertEquals(
                            "uid=u0001,ou=Crew,dc=example,dc=com",
                            directory.load(fresh, person).dn());
                }
            }
            try (ReadTxn txn = tree.store.read()) {
                assertEquals(
                        "uid=u0001,ou=Crew,dc=example,dc=com",
                        directory.load(txn, person).dn());
            }
        }
    }

    @Test
    void aReaderOfTheOldGenerationDoesNotServeStaleDnsToANewOne() {
        try (TestTree tree = tree(dir, 3)) {
            Directory directory = tree.directory;
            try (ReadTxn old = tree.store.read()) {
                long person = id(tree, old, "uid=u0002," + UNIT);
                rename(tree, UNIT, "ou=Crew");
                // The old reader fills first, at its own generation...
                assertEquals("uid=u0002," + UNIT, directory.load(old, person).dn());
                try (ReadTxn fresh = tree.store.read()) {
                    // ...which the new reader, a rename later, does not use.
                    assertEquals(
                            "uid=u0002,ou=Crew,dc=example,dc=com",
                            directory.load(fresh, person).dn());
                }
                assertEquals("uid=u0002," + UNIT, directory.load(old, person).dn());
            }
        }
    }

    @Test
    void aWriterThatRenamedSeesItsOwnStateAndAnAbortedRenameLeavesNothingCached() {
        try (TestTree tree = tree(dir, 2)) {
            Directory directory = tree.directory;
            long person;
            try (ReadTxn txn = tree.store.read()) {
                person = id(tree, txn, "uid=u0000," + UNIT);
                directory.load(txn, person);
            }
            try (WriteTxn txn = tree.store.write()) {
                long unit = id(tree, txn, UNIT);
                StoredEntry before = directory.load(txn, unit);
                Entry after = tree.schemaNormalizer.toEntry(before);
                after.setDn(tree.schemaNormalizer.dn("ou=Crew,dc=example,dc=com"));
                directory.move(txn, before, before.parentId(), after);
                assertEquals(
                        "uid=u0000,ou=Crew,dc=example,dc=com",
                        directory.load(txn, person).dn());
                // aborted
            }
            try (ReadTxn txn = tree.store.read()) {
                assertEquals("uid=u0000," + UNIT, directory.load(txn, person).dn());
            }
        }
    }

    @Test
    void subtreeScopeClimbsTheCachedChain() {
        try (TestTree tree = tree(dir, 2)) {
            ParentChain chain = new ParentChain(ParentChain.DEFAULT_MAX_BYTES);
            try (ReadTxn txn = tree.store.read()) {
                long suffix = id(tree, txn, "dc=example,dc=com");
                long unit = id(tree, txn, UNIT);
                long people = id(tree, txn, "ou=People,dc=example,dc=com");
                long person = id(tree, txn, "uid=u0001," + UNIT);
                assertTrue(chain.isWithin(txn, person, person));
                assertTrue(chain.isWithin(txn, person, unit));
                assertTrue(chain.isWithin(txn, person, suffix));
                assertFalse(chain.isWithin(txn, person, people));
                assertFalse(chain.isWithin(txn, unit, person));
                assertFalse(chain.isWithin(txn, 999_999, suffix), "an absent entry lies below nothing");
                assertEquals(2, chain.size());
            }
        }
    }

    @Test
    void aParentChainThatLoopsIsReportedNotWalkedForever() throws LdapException {
        try (TestTree tree = tree(dir, 0)) {
            EntryCodec codec = new EntryCodec(new AttributeCatalog(tree.schema, Map.of()));
            long first;
            long second;
            try (WriteTxn txn = tree.store.write()) {
                first = txn.allocateId();
                second = txn.allocateId();
                txn.putEntry(first, codec.encode(second, new DefaultEntry(tree.schema, "ou=a,dc=example,dc=com")));
                txn.putEntry(second, codec.encode(first, new DefaultEntry(tree.schema, "ou=b,dc=example,dc=com")));
                txn.commit();
            }
            ParentChain chain = new ParentChain(ParentChain.DEFAULT_MAX_BYTES);
            try (ReadTxn txn = tree.store.read()) {
                IllegalStateException e = assertThrows(IllegalStateException.class, () -> chain.dn(txn, first));
                assertTrue(e.getMessage().contains("loops"), e.getMessage());
            }
        }
    }
}
