package dev.larch.server.index;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import dev.larch.config.IndexKind;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.store.WriteTxn;
import dev.larch.server.testing.Ldif;
import dev.larch.server.testing.TestTree;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.message.SearchScope;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Index records after a write: exactly the keys of the entry as written, through {@code Directory.replace}. */
class IndexMaintainerTest {
    private static final String CN = "2.5.4.3";
    private static final String SN = "2.5.4.4";
    private static final String PHONE = "2.5.4.20";
    private static final String JDOE = "uid=jdoe,ou=People,dc=example,dc=com";

    @Test
    void aChangeToAnUnindexedAttributeLeavesEveryIndexRecordAsItWas(@TempDir Path dir) throws LdapException {
        try (TestTree tree = new TestTree(dir).add(Ldif.PEOPLE_AND_GROUP)) {
            List<String> before = allIndexRecords(tree);
            modify(tree, entry -> entry.put("description", "changed"));
            assertEquals(before, allIndexRecords(tree));
        }
    }

    @Test
    void aChangedIndexedValueMovesItsKeysAndKeepsTheOtherAttributesKeys(@TempDir Path dir) throws LdapException {
        try (TestTree tree = new TestTree(dir).add(Ldif.PEOPLE_AND_GROUP)) {
            long sn = records(tree, SN, IndexKind.SUBSTRING);
            long phone = records(tree, PHONE, IndexKind.PRESENCE);
            byte[] oldCn = normalizedCn(tree);
            modify(tree, entry -> {
                entry.put("cn", "Johnny Doe");
                entry.removeAttributes("telephoneNumber");
            });
            byte[] newCn = normalizedCn(tree);
            try (ReadTxn txn = tree.store.read()) {
                assertEquals(0, txn.count(CN, IndexKind.EQUALITY, oldCn));
                assertEquals(1, txn.count(CN, IndexKind.EQUALITY, newCn));
            }
            assertEquals(sn, records(tree, SN, IndexKind.SUBSTRING), "sn did not change");
            assertEquals(phone - 1, records(tree, PHONE, IndexKind.PRESENCE));
            assertEquals(
                    List.of("uid=jdoe,ou=People,dc=example,dc=com"),
                    tree.search("dc=example,dc=com", SearchScope.SUBTREE, "(cn=johnny*)"));
        }
    }

    @Test
    void reorderedValuesCountAsAChangeAndKeepTheSameKeys(@TempDir Path dir) throws LdapException {
        try (TestTree tree = new TestTree(dir).add(Ldif.PEOPLE_AND_GROUP)) {
            modify(tree, entry -> entry.put("cn", "John Doe", "J. Doe"));
            List<String> twoValues = allIndexRecords(tree);
            modify(tree, entry -> entry.put("cn", "J. Doe", "John Doe"));
            assertEquals(twoValues, allIndexRecords(tree));
        }
    }

    private interface Change {
        void apply(Entry entry) throws LdapException;
    }

    private static void modify(TestTree tree, Change change) throws LdapException {
        try (WriteTxn txn = tree.store.write()) {
            StoredEntry before = tree.directory.load(txn, tree.directory.require(txn, tree.schemaNormalizer.dn(JDOE)));
            Entry after = tree.schemaNormalizer.toEntry(before);
            change.apply(after);
            tree.directory.replace(txn, before, after);
            txn.commit();
        }
    }

    /** The one normalized cn value of jdoe, as the equality index keys it. */
    private static byte[] normalizedCn(TestTree tree) {
        try (ReadTxn txn = tree.store.read()) {
            StoredEntry e = tree.directory.load(txn, tree.directory.require(txn, tree.schemaNormalizer.dn(JDOE)));
            return e.attribute(CN).normalized()[0];
        }
    }

    private static long records(TestTree tree, String oid, IndexKind kind) {
        try (ReadTxn txn = tree.store.read()) {
            return txn.indexRecordCount(oid, kind);
        }
    }

    /** Every record of every configured index, as "oid kind key id", in store order. */
    private static List<String> allIndexRecords(TestTree tree) {
        List<String> out = new ArrayList<>();
        try (ReadTxn txn = tree.store.read()) {
            TestTree.DEFAULT_INDEXES.forEach((oid, kinds) -> {
                for (IndexKind kind : kinds) {
                    txn.forEachIndexRecord(
                            oid,
                            kind,
                            (key, id) -> out.add(
                                    oid + " " + kind + " " + HexFormat.of().formatHex(key) + " " + id));
                }
            });
        }
        out.sort(null);
        return out;
    }
}
