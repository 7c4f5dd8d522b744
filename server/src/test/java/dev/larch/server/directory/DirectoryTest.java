package dev.larch.server.directory;

import java.nio.file.Path;

import dev.larch.server.error.ResultCodeException;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.testing.Ldif;
import dev.larch.server.testing.TestTree;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
}
