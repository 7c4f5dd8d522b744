package dev.larch.server.directory;

import java.nio.file.Path;
import java.util.Map;

import dev.larch.server.entry.StoredEntry;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.store.WriteTxn;
import dev.larch.server.testing.TestTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReferralObjectsTest {
    static final String TREE = """
            dn: dc=example,dc=com
            objectClass: domain
            dc: example

            dn: ou=people,dc=example,dc=com
            objectClass: organizationalUnit
            ou: people

            dn: ou=remote,dc=example,dc=com
            objectClass: referral
            objectClass: extensibleObject
            ou: remote
            ref: ldap://other.example/ou=remote,dc=other
            """;

    static long id(TestTree tree, String dn) {
        try (ReadTxn txn = tree.store.read()) {
            return tree.directory.resolve(txn, tree.schemaNormalizer.dn(dn));
        }
    }

    @Test
    void aCommittedWriteUpdatesTheSetAndAnAbortedOneDoesNot(@TempDir Path dir) {
        try (TestTree tree = new TestTree(dir)) {
            ReferralObjects referrals = tree.directory.referrals();
            assertTrue(referrals.isEmpty());
            tree.add(TREE);
            long remote = id(tree, "ou=remote,dc=example,dc=com");
            assertFalse(referrals.isEmpty());
            assertTrue(referrals.contains(remote));
            assertFalse(referrals.contains(id(tree, "ou=people,dc=example,dc=com")));

            try (WriteTxn txn = tree.store.write()) {
                StoredEntry entry = tree.directory.load(txn, remote);
                tree.directory.delete(txn, entry);
                // not committed: closing aborts
            }
            assertTrue(referrals.contains(remote));
            try (WriteTxn txn = tree.store.write()) {
                tree.directory.delete(txn, tree.directory.load(txn, remote));
                txn.commit();
            }
            assertTrue(referrals.isEmpty());
        }
    }

    @Test
    void theSetIsReadAtOpenFromTheIndex(@TempDir Path dir) {
        long remote;
        try (TestTree tree = new TestTree(dir)) {
            tree.add(TREE);
            remote = id(tree, "ou=remote,dc=example,dc=com");
        }
        try (TestTree reopened = new TestTree(dir)) {
            assertEquals(1, reopened.directory.referrals().ids().size());
            assertTrue(reopened.directory.referrals().contains(remote));
        }
    }

    @Test
    void theSetIsReadAtOpenWithoutAnObjectClassIndex(@TempDir Path dir) {
        long remote;
        try (TestTree tree = new TestTree(dir, Map.of(), 1000)) {
            tree.add(TREE);
            remote = id(tree, "ou=remote,dc=example,dc=com");
        }
        try (TestTree reopened = new TestTree(dir, Map.of(), 1000)) {
            assertEquals(1, reopened.directory.referrals().ids().size());
            assertTrue(reopened.directory.referrals().contains(remote));
        }
    }
}
