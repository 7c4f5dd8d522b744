package dev.larch.server.maintenance;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import dev.larch.config.IndexKind;
import dev.larch.config.LarchConfig;
import dev.larch.schema.LarchSchema;
import dev.larch.server.StoredDirectory;
import dev.larch.server.directory.Directory;
import dev.larch.server.entry.AttributeCatalog;
import dev.larch.server.entry.EntryCodec;
import dev.larch.server.entry.EntryUuids;
import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.store.ChangeLogTampering;
import dev.larch.server.store.IndexKeys;
import dev.larch.server.store.IndexRef;
import dev.larch.server.store.LoggedChange;
import dev.larch.server.store.WriteTxn;
import dev.larch.server.testing.TestServer;
import org.apache.directory.api.ldap.model.entry.DefaultEntry;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The offline integrity check finds each kind of disagreement between entries, the DN tree and indexes. */
class StoreVerifierTest {
    private static final String PERSON = "uid=verified,ou=people," + TestServer.SUFFIX;
    private static final String ENTRY_UUID = "1.3.6.1.1.16.4";
    private static final String ENTRY_CSN = "1.3.6.1.4.1.4203.666.1.7";
    private static final String DESCRIPTION = "2.5.4.13";
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

    /** Two threads, whatever the machine has: each check runs with the entries split between them. */
    private VerifyReport verify() throws Exception {
        return verify(0, 2);
    }

    private VerifyReport verify(long sortMemoryBytes, int threads) throws Exception {
        try (StoredDirectory open =
                StoredDirectory.openReadOnly(config, LarchSchema.load(config.schemaFiles()), false)) {
            return new StoreVerifier(open.directory(), null, sortMemoryBytes, threads).verify();
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
    void aSoundStoreIsCleanOnOneThread() throws Exception {
        VerifyReport report = verify(0, 1);
        assertTrue(report.clean(), report.listed().toString());
        assertEquals(4, report.entries());
    }

    /**
     * A key moved to another entry's ID: the index holds as many records as the entries give it, so
     * a count cannot tell, and a lookup of each expected record finds only the missing half. The
     * walk of the index against the expected records names both.
     */
    @Test
    void aKeyUnderTheWrongIdIsNamedAsMissingForOneEntryAndExtraForTheOther() throws Exception {
        long[] ids = new long[2];
        tamper((txn, directory, person) -> {
            ids[0] = person.id();
            ids[1] = person.parentId();
            for (IndexKeys.Key key : directory.indexes().keysOf(person, SN_EQUALITY)) {
                txn.indexDelete(SN_EQUALITY.attributeOid(), SN_EQUALITY.kind(), key.bytes(), person.id());
                txn.indexAdd(SN_EQUALITY.attributeOid(), SN_EQUALITY.kind(), key.bytes(), person.parentId());
            }
        });
        VerifyReport report = verify();
        assertFinds(report, "the equality index of 2.5.4.4 lacks a key of entry " + ids[0] + " (" + PERSON + ")");
        assertFinds(
                report,
                "the equality index of 2.5.4.4 holds a key for entry " + ids[1] + " (ou=people," + TestServer.SUFFIX
                        + ") that none of its values gives");
        assertEquals(2, report.problems(), report.listed().toString());
    }

    /**
     * More expected records than the sort memory holds: they are spilled to sorted runs by both
     * threads and merged, and the comparison still finds the store clean, then a missing and an
     * extra record.
     */
    @Test
    void expectedRecordsBeyondTheSortMemoryAreComparedFromSortedRuns() throws Exception {
        config = TestServer.config(dir.resolve("larger"));
        StringBuilder ldif = new StringBuilder(TestServer.BASE_LDIF);
        for (int i = 0; i < 3000; i++) {
            ldif.append("\ndn: uid=user")
                    .append(i)
                    .append(",ou=people,")
                    .append(TestServer.SUFFIX)
                    .append("\nobjectClass: inetOrgPerson\nuid: user")
                    .append(i)
                    .append("\ncn: Person Number ")
                    .append(i)
                    .append("\nsn: Number")
                    .append(i)
                    .append("\nmail: user")
                    .append(i)
                    .append("@example.com\n");
        }
        ldif.append("\ndn: ")
                .append(PERSON)
                .append("\nobjectClass: inetOrgPerson\nuid: verified\ncn: Vera Fied\nsn: Fied\n");
        TestServer.importOffline(config, ldif.toString());
        long oneMiB = 1L << 20; // the least the verifier takes; the expected records here need several
        VerifyReport sound = verify(oneMiB, 2);
        assertTrue(sound.clean(), sound.listed().toString());
        assertEquals(3004, sound.entries());
        assertTrue(sound.indexRecords() > 3000 * 30, "index records " + sound.indexRecords());
        tamper((txn, directory, person) -> {
            for (IndexKeys.Key key : directory.indexes().keysOf(person, SN_EQUALITY)) {
                txn.indexDelete(SN_EQUALITY.attributeOid(), SN_EQUALITY.kind(), key.bytes(), person.id());
            }
            txn.indexAdd(SN_EQUALITY.attributeOid(), SN_EQUALITY.kind(), "nobody".getBytes(UTF_8), person.id());
        });
        VerifyReport broken = verify(oneMiB, 2);
        assertFinds(broken, "lacks a key of entry");
        assertFinds(broken, "that none of its values gives");
        assertEquals(2, broken.problems(), broken.listed().toString());
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

    /** The person's stored bytes with {@code attributes} instead of its own, as the store's codec writes them. */
    private static byte[] storedForm(Directory directory, StoredEntry person, List<StoredAttribute> attributes) {
        List<String> oids = new ArrayList<>();
        directory.schemaNormalizer().schema().getAttributeTypeRegistry().forEach(t -> oids.add(t.getOid()));
        EntryCodec codec = new EntryCodec(new AttributeCatalog(
                directory.schemaNormalizer().schema(),
                directory.store().attributeNumbers().ids(oids)));
        String name = EntryCodec.storedName(
                person.parentId(), directory.schemaNormalizer().dn(PERSON));
        return codec.encode(person.parentId(), name, attributes);
    }

    /** The person as an API entry, with {@code change} applied, written back without a new stamp. */
    private static void rewrite(WriteTxn txn, Directory directory, StoredEntry person, EntryChange change) {
        Entry entry = directory.schemaNormalizer().toEntry(person);
        try {
            change.apply(entry);
        } catch (LdapException e) {
            throw new IllegalStateException(e);
        }
        directory.replaceUntold(txn, person, entry);
    }

    private interface EntryChange {
        void apply(Entry entry) throws LdapException;
    }

    /** A change log record of the person's with {@code csn}. */
    private static LoggedChange record(StoredEntry person, String csn) {
        return new LoggedChange(
                csn.getBytes(US_ASCII),
                LoggedChange.Kind.MODIFY,
                person.id(),
                EntryUuids.toBytes(new String(person.attribute(ENTRY_UUID).values()[0], US_ASCII)));
    }

    @Test
    void aStoreWithLoggedChangesIsClean() throws Exception {
        tamper((txn, directory, person) -> {
            Entry entry = directory.schemaNormalizer().toEntry(person);
            try {
                entry.add("description", "logged");
            } catch (LdapException e) {
                throw new IllegalStateException(e);
            }
            directory.replace(txn, person, entry); // stamped and logged, as a client's modify is
        });
        VerifyReport report = verify();
        assertTrue(report.clean(), report.listed().toString());
        assertEquals(1, report.changes());
    }

    @Test
    void twoEntriesSharingAnEntryUuidAreNamed() throws Exception {
        tamper((txn, directory, person) -> {
            StoredEntry people = directory.load(txn, person.parentId());
            String uuid = new String(person.attribute(ENTRY_UUID).values()[0], US_ASCII);
            rewrite(txn, directory, people, e -> e.put("entryUUID", uuid));
        });
        VerifyReport report = verify();
        assertFinds(report, "is held by 2 entries, not one");
        assertFinds(report, "(" + PERSON + ")");
        assertEquals(1, report.problems(), report.listed().toString());
    }

    @Test
    void anEntryWithoutEntryUuidOrEntryCsnIsNamed() throws Exception {
        tamper((txn, directory, person) -> rewrite(txn, directory, person, e -> {
            e.removeAttributes("entryUUID");
            e.removeAttributes("entryCSN");
        }));
        VerifyReport report = verify();
        assertFinds(report, "(" + PERSON + ") has no entryUUID");
        assertFinds(report, "(" + PERSON + ") has no entryCSN");
    }

    @Test
    void anAttributeStoredWithNoValueIsNamed() throws Exception {
        tamper((txn, directory, person) -> {
            // The codec no longer writes such an attribute; stores written before it may hold one. Written
            // with one value last, then that value cut off and the count set to zero.
            List<StoredAttribute> attributes = new ArrayList<>(person.attributes());
            attributes.add(new StoredAttribute(DESCRIPTION, "description", new byte[][] {{'x'}}, null, null));
            byte[] bytes = storedForm(directory, person, attributes);
            byte[] empty = Arrays.copyOf(bytes, bytes.length - 2); // without the value's length and byte
            empty[empty.length - 1] = 0; // no values
            txn.putEntry(person.id(), empty);
        });
        VerifyReport report = verify();
        assertFinds(report, "(" + PERSON + ") stores description with no value");
    }

    @Test
    void anEntryCsnThatDoesNotParseIsNamed() throws Exception {
        tamper((txn, directory, person) -> {
            // In stored form: the API entry would refuse the value by its syntax.
            List<StoredAttribute> attributes = new ArrayList<>();
            for (StoredAttribute a : person.attributes()) {
                attributes.add(
                        a.oid().equals(ENTRY_CSN)
                                ? new StoredAttribute(
                                        a.oid(),
                                        a.userId(),
                                        new byte[][] {"yesterday".getBytes(US_ASCII)},
                                        a.type(),
                                        null)
                                : a);
            }
            txn.putEntry(person.id(), storedForm(directory, person, attributes));
        });
        assertFinds(verify(), "(" + PERSON + ") has an entryCSN that does not parse");
    }

    @Test
    void aLoggedChangeAboveTheContextCsnIsNamed() throws Exception {
        String future = "29991231235959.000000Z#000000#001#000000";
        tamper((txn, directory, person) -> ChangeLogTampering.appendOnly(txn, record(person, future)));
        VerifyReport report = verify();
        assertFinds(report, "change log record " + future + " (modify of entry");
        assertFinds(report, "is above the contextCSN of server ID 1");
        assertFinds(report, "is newer than the entryCSN of entry");
    }

    @Test
    void aLoggedChangeOfAServerIdTheContextCsnLacksIsNamed() throws Exception {
        String other = "20200101000000.000000Z#000000#07b#000000";
        tamper((txn, directory, person) -> ChangeLogTampering.appendOnly(txn, record(person, other)));
        assertFinds(verify(), "has server ID 123, which the contextCSN does not name");
    }

    @Test
    void aLoggedChangeNamingAnotherUuidThanItsEntrysIsNamed() throws Exception {
        tamper((txn, directory, person) -> {
            LoggedChange mine =
                    record(person, new String(person.attribute(ENTRY_CSN).values()[0], US_ASCII));
            txn.logChange(new LoggedChange(mine.csn(), mine.kind(), mine.entryId(), new byte[16]));
        });
        assertFinds(verify(), "names entryUUID 00000000-0000-0000-0000-000000000000, but entry");
    }
}
