package dev.larch.server.maintenance;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import dev.larch.config.IndexKind;
import dev.larch.config.LarchConfig;
import dev.larch.schema.LarchSchema;
import dev.larch.server.StoredDirectory;
import dev.larch.server.directory.Directory;
import dev.larch.server.entry.AttributeCatalog;
import dev.larch.server.entry.EntryCodec;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.store.IndexKeys;
import dev.larch.server.store.IndexRef;
import dev.larch.server.store.WriteTxn;
import dev.larch.server.testing.TestServer;
import org.apache.directory.api.ldap.model.entry.DefaultEntry;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The offline integrity check finds each kind of disagreement between entries, the DN tree and indexes. */
class StoreVerifierTest {
    private static final String PERSON = "uid=verified,ou=people," + TestServer.SUFFIX;
    private static final IndexRef SN_EQUALITY = new IndexRef("2.5.4.4", IndexKind.EQUALITY);

    @TempDir
    Path dir;

    private LarchConfig config;

    @BeforeEach
    void load() {
        config = TestServer.config(dir.resolve("data"));
        TestServer.importOffline(
                config,
                TestServer.BASE_LDIF + "\ndn: " + PERSON
                        + "\nobjectClass: inetOrgPerson\nuid: verified\ncn: Vera Fied\nsn: Fied\n");
    }

    private VerifyReport verify() throws Exception {
        try (StoredDirectory open =
                StoredDirectory.openReadOnly(config, LarchSchema.load(config.schemaFiles()), false)) {
            return new StoreVerifier(open.directory(), null).verify();
        }
    }

    /** Changes the store behind the directory's back, as a bug or a bad disk would. */
    private void tamper(Tampering tampering) throws Exception {
        try (StoredDirectory open = StoredDirectory.open(config, LarchSchema.load(config.schemaFiles()), false);
                WriteTxn txn = open.store().write()) {
            Directory directory = open.directory();
            StoredEntry person = directory.load(
                    txn, directory.resolve(txn, directory.schemaNormalizer().dn(PERSON)));
            tampering.apply(txn, directory, person);
            txn.commit();
        }
    }

    private interface Tampering {
        void apply(WriteTxn txn, Directory directory, StoredEntry person);
    }

    private static void assertFinds(VerifyReport report, String fragment) {
        assertFalse(report.clean(), "the verifier found nothing");
        assertTrue(
                report.listed().stream().anyMatch(p -> p.contains(fragment)),
                "no disagreement says '" + fragment + "': " + report.listed());
    }

    @Test
    void aWrongOrMissingMemberOfIsFound() throws Exception {
        String group = "cn=verifiers,ou=groups," + TestServer.SUFFIX;
        config = TestServer.config(dir.resolve("with-groups"));
        TestServer.importOffline(
                config,
                TestServer.BASE_LDIF + "\ndn: " + PERSON
                        + "\nobjectClass: inetOrgPerson\nuid: verified\ncn: Vera Fied\nsn: Fied\n\n"
                        + "dn: " + group + "\nobjectClass: groupOfNames\ncn: verifiers\nmember: " + PERSON + "\n");
        assertTrue(verify().clean(), verify().listed().toString());
        tamper((txn, directory, person) -> directory.writeMemberOf(txn, person, List.of()));
        assertFinds(verify(), "has memberOf [] but its groups say [" + group + "]");
        tamper((txn, directory, person) ->
                directory.writeMemberOf(txn, person, List.of(group, "cn=other,ou=groups," + TestServer.SUFFIX)));
        assertFinds(verify(), "(" + PERSON + ") has memberOf");
    }

    @Test
    void aSoundStoreIsClean() throws Exception {
        VerifyReport report = verify();
        assertTrue(report.clean(), report.listed().toString());
        assertEquals(4, report.entries()); // the base tree's three and the person
        assertTrue(report.indexRecords() > 0);
    }

    @Test
    void aMissingIndexRecordIsNamed() throws Exception {
        tamper((txn, directory, person) -> {
            for (IndexKeys.Key key : directory.indexes().keysOf(person, SN_EQUALITY)) {
                txn.indexDelete(SN_EQUALITY.attributeOid(), SN_EQUALITY.kind(), key.bytes(), person.id());
            }
        });
        assertFinds(verify(), "lacks a key of entry");
    }

    @Test
    void anIndexRecordNoValueGivesIsNamed() throws Exception {
        tamper((txn, directory, person) ->
                txn.indexAdd(SN_EQUALITY.attributeOid(), SN_EQUALITY.kind(), "nobody".getBytes(UTF_8), person.id()));
        assertFinds(verify(), "that none of its values gives");
    }

    @Test
    void anEntryTheDnTreeNoLongerReachesIsNamed() throws Exception {
        tamper((txn, directory, person) -> txn.deleteChild(
                person.parentId(),
                Directory.rdnKey(directory.schemaNormalizer().dn(PERSON).getRdn())));
        VerifyReport report = verify();
        assertFinds(report, "the DN tree does not lead to entry");
        assertFinds(report, "the DN tree holds 3 records for 4 entries");
    }

    @Test
    void recordsNamingAnEntryThatIsGoneAreNamed() throws Exception {
        tamper((txn, directory, person) -> txn.deleteEntry(person.id()));
        VerifyReport report = verify();
        assertFinds(report, "names entry");
        assertFinds(report, "which does not exist");
        assertTrue(report.problems() >= 2, List.copyOf(report.listed()).toString());
    }

    /** The stored bytes of entry {@code id} with its parent ID replaced by {@code parentId}. */
    private static byte[] withParent(WriteTxn txn, long id, long parentId) {
        ByteBuffer stored = txn.entry(id);
        byte[] bytes = new byte[stored.remaining()];
        stored.duplicate().get(bytes);
        ByteBuffer.wrap(bytes).putLong(1, parentId); // after the version byte
        return bytes;
    }

    @Test
    void aStoredNameOfSeveralRdnsIsNamed() throws Exception {
        tamper((txn, directory, person) -> {
            EntryCodec bare = new EntryCodec(
                    new AttributeCatalog(directory.schemaNormalizer().schema(), Map.of()));
            try {
                // A root's name is its whole DN: so a name of two RDNs, then moved under ou=people.
                byte[] bytes = bare.encode(
                        EntryCodec.NO_PARENT,
                        new DefaultEntry(directory.schemaNormalizer().schema(), "uid=verified,ou=lost"));
                ByteBuffer.wrap(bytes).putLong(1, person.parentId());
                txn.putEntry(person.id(), bytes);
            } catch (LdapException e) {
                throw new IllegalStateException(e);
            }
        });
        assertFinds(verify(), "stores a name that is not one RDN under its parent");
    }

    @Test
    void aParentChainThatLoopsIsNamed() throws Exception {
        tamper((txn, directory, person) ->
                txn.putEntry(person.parentId(), withParent(txn, person.parentId(), person.id())));
        assertFinds(verify(), "loops");
    }

    @Test
    void aDnTreeRecordUnderAnotherParentThanTheEntrysIsNamed() throws Exception {
        tamper((txn, directory, person) -> {
            long suffix = directory.resolve(txn, directory.suffix());
            txn.putChild(
                    suffix,
                    Directory.rdnKey(directory.schemaNormalizer().dn(PERSON).getRdn()),
                    person.id());
        });
        VerifyReport report = verify();
        assertFinds(report, "the DN tree holds 5 records for 4 entries");
        assertFinds(report, "names entry");
        assertFinds(report, "whose parent is");
    }
}
