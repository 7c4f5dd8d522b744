package dev.larch.server.search;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.larch.server.entry.StoredEntry;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.testing.Ldif;
import dev.larch.server.testing.TestTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Selecting attributes of entries read from a store, whose decisions are remembered by attribute number. */
class AttributeSelectionTest {
    private static final String LDIF = Ldif.BASE + """
            dn: uid=ann,ou=People,dc=example,dc=com
            objectClass: inetOrgPerson
            uid: ann
            cn: Ann Smith
            sn: Smith
            mail: ann@example.com
            telephoneNumber: +1 555 0100

            dn: uid=bob,ou=People,dc=example,dc=com
            objectClass: inetOrgPerson
            uid: bob
            cn: Bob Jones
            sn: Jones
            title: Clerk
            """;

    private static final String ANN = "uid=ann,ou=People,dc=example,dc=com";
    private static final String BOB = "uid=bob,ou=People,dc=example,dc=com";

    @TempDir
    Path dir;

    @Test
    void anEntryOfTheStoreIsSelectedAsByItsTypesEachTimeForEverySelection() {
        try (TestTree tree = new TestTree(dir).add(LDIF)) {
            for (List<String> requested : List.of(
                    List.of("cn", "mail"),
                    List.of("name"),
                    List.of("*"),
                    List.of("1.1"),
                    List.of("objectClass", "noSuchAttribute"))) {
                AttributeSelection selection = AttributeSelection.of(requested, tree.schema);
                // Twice over both entries: the second pass answers from what the first remembered.
                for (int pass = 0; pass < 2; pass++) {
                    for (String dn : List.of(ANN, BOB)) {
                        StoredEntry entry = load(tree, dn);
                        List<String> byNumber = new ArrayList<>();
                        List<String> byType = new ArrayList<>();
                        for (int i = 0; i < entry.attributes().size(); i++) {
                            assertTrue(entry.numberAt(i) >= 0, "an entry of the store has numbers");
                            if (selection.includes(entry, i)) {
                                byNumber.add(entry.oidAt(i));
                            }
                            if (selection.includes(entry.oidAt(i), entry.typeAt(i))) {
                                byType.add(entry.oidAt(i));
                            }
                        }
                        assertEquals(byType, byNumber, requested + " on " + dn + ", pass " + pass);
                    }
                }
            }
            AttributeSelection name = AttributeSelection.of(List.of("name"), tree.schema);
            StoredEntry bob = load(tree, BOB);
            List<String> selected = new ArrayList<>();
            for (int pass = 0; pass < 2; pass++) {
                selected.clear();
                for (int i = 0; i < bob.attributes().size(); i++) {
                    if (name.includes(bob, i)) {
                        selected.add(bob.attributes().get(i).userId());
                    }
                }
            }
            // name's subtypes: cn, sn and title, not uid (a subtype of none) or objectClass
            assertEquals(
                    List.of("cn", "sn", "title"), selected.stream().sorted().toList());
        }
    }

    private static StoredEntry load(TestTree tree, String dn) {
        try (ReadTxn txn = tree.store.read()) {
            return tree.directory.load(txn, tree.directory.require(txn, tree.schemaNormalizer.dn(dn)));
        }
    }
}
