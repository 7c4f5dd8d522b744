package dev.larch.server.store;

import java.nio.file.Path;
import java.util.List;

import dev.larch.config.LarchConfig;
import dev.larch.schema.LarchSchema;
import dev.larch.server.StoredDirectory;
import dev.larch.server.directory.SubtreeNames;
import dev.larch.server.maintenance.StoreVerifier;
import dev.larch.server.maintenance.VerifyReport;
import dev.larch.server.search.FilterCompiler;
import dev.larch.server.search.SearchPlanner;
import dev.larch.server.testing.TestServer;
import org.apache.directory.api.ldap.model.filter.EqualityNode;
import org.apache.directory.api.ldap.model.schema.SchemaManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A store of format 4, whose equality indexes key a DN as it is spelled, opened by this build: read-only
 * it is refused, and the first writable open builds those indexes again with DN keys, so equality
 * searches, the ranges of a rename and the verifier agree with it.
 */
class DnKeyUpgradeTest {
    private static final String MEMBER = "2.5.4.31";
    private static final String PERSON = "uid=kept,ou=people," + TestServer.SUFFIX;
    private static final String GROUP = "cn=keepers,ou=groups," + TestServer.SUFFIX;

    @TempDir
    Path dir;

    @Test
    void aFormatFourStoreIsRefusedReadOnlyAndRekeyedAtItsFirstWritableOpen() throws Exception {
        LarchConfig config = TestServer.config(dir.resolve("data"));
        TestServer.importOffline(
                config,
                TestServer.BASE_LDIF + "\ndn: " + PERSON + "\nobjectClass: inetOrgPerson\nuid: kept\ncn: K\nsn: K\n\n"
                        + "dn: " + GROUP + "\nobjectClass: groupOfNames\ncn: keepers\nmember: " + PERSON + "\n");
        SchemaManager schema = LarchSchema.load(config.schemaFiles());
        FormatFourStores.rewrite(config, schema);

        StoreException readOnly =
                assertThrows(StoreException.class, () -> StoredDirectory.openReadOnly(config, schema, false));
        assertTrue(readOnly.getMessage().contains("format version 4"), readOnly.getMessage());
        assertTrue(readOnly.getMessage().contains("./larch serve"), readOnly.getMessage());

        try (StoredDirectory open = StoredDirectory.open(config, schema, false);
                ReadTxn txn = open.store().read()) {
            assertEquals(List.of(), open.store().indexes().unbuilt());
            FilterCompiler compiler = new FilterCompiler(schema);
            SearchPlanner planner = new SearchPlanner(open.store(), 1000);
            long group = assertOnlyMatch(open, txn, planner, compiler, "member", PERSON, GROUP);
            assertOnlyMatch(open, txn, planner, compiler, "memberOf", GROUP, PERSON);
            String people = open.directory()
                    .schemaNormalizer()
                    .dn("ou=people," + TestServer.SUFFIX)
                    .getNormName();
            String kept = open.directory().schemaNormalizer().dn(PERSON).getNormName();
            String relativeKept = kept.substring(0, kept.length() - people.length() - 1);
            assertEquals(
                    List.of(new SubtreeNames.Named(relativeKept, 0, group)),
                    new SubtreeNames(txn, open.directory(), List.of(people)).below(MEMBER));
        }
        try (StoredDirectory open = StoredDirectory.openReadOnly(config, schema, false)) {
            VerifyReport report = new StoreVerifier(open.directory(), null, 0, 2).verify();
            assertTrue(report.clean(), report.listed().toString());
        }
    }

    /** Asserts that ({@code attribute}={@code value}) finds the entry {@code expected} alone; returns its ID. */
    private static long assertOnlyMatch(
            StoredDirectory open,
            ReadTxn txn,
            SearchPlanner planner,
            FilterCompiler compiler,
            String attribute,
            String value,
            String expected)
            throws Exception {
        long id = open.directory()
                .resolve(txn, open.directory().schemaNormalizer().dn(expected));
        IdSet found = planner.plan(txn, compiler.compile(new EqualityNode<>(attribute, value)))
                .ids();
        assertEquals(1, found.size());
        assertEquals(id, found.get(0));
        return id;
    }
}
