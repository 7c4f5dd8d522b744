package dev.larch.server.entry;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.larch.schema.LarchSchema;
import org.apache.directory.api.ldap.model.entry.DefaultAttribute;
import org.apache.directory.api.ldap.model.entry.DefaultEntry;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.schema.SchemaManager;
import org.junit.jupiter.api.Test;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The stored entry format, byte for byte: entries on disk are read by this codec, so a change of
 * these bytes is a change of the store format ({@code dev.larch.server.store.StoreFormat}).
 */
class EntryCodecTest {
    private static final SchemaManager SCHEMA = LarchSchema.standard();
    private static final String CN = "2.5.4.3";
    private static final String SN = "2.5.4.4";

    /** cn is number 300 (a two-byte varint), sn number 2. */
    private static final EntryCodec CODEC = new EntryCodec(new AttributeCatalog(SCHEMA, Map.of(CN, 300, SN, 2)));

    /** cn=Ann with cn spelled "CN" by the client, which the entry keeps as the attribute's name. */
    private static Entry ann() throws LdapException {
        Entry entry = new DefaultEntry(SCHEMA, "cn=Ann,dc=ex");
        entry.add(new DefaultAttribute("CN", SCHEMA.getAttributeType(CN), "Ann", "Anne"));
        return entry;
    }

    @Test
    void anEntryIsWrittenInTheDocumentedLayout() throws LdapException {
        byte[] expected = {
            3, // format version
            1,
            2,
            3,
            4,
            5,
            6,
            7,
            8, // parent ID, 8 bytes big-endian
            6,
            'c',
            'n',
            '=',
            'A',
            'n',
            'n', // the entry's own RDN as given (not its DN): length, UTF-8
            1, // one attribute
            (byte) 0xAC,
            0x02, // its number, 300, as a varint
            3,
            'C',
            'N', // its name as the client wrote it: length + 1, bytes (0 would mean "cn")
            2, // two values
            3,
            'A',
            'n',
            'n',
            4,
            'A',
            'n',
            'n',
            'e'
        };
        assertArrayEquals(expected, CODEC.encode(0x0102030405060708L, ann()));
    }

    @Test
    void theTypesOwnNameIsWrittenAsZero() throws LdapException {
        Entry entry = new DefaultEntry(SCHEMA, "sn=Lee,dc=ex", "sn: Lee");
        byte[] expected = {3, 0, 0, 0, 0, 0, 0, 0, 9, 6, 's', 'n', '=', 'L', 'e', 'e', 1, 2, 0, 1, 3, 'L', 'e', 'e'};
        assertArrayEquals(expected, CODEC.encode(9, entry));
    }

    @Test
    void aNamingContextsRootKeepsItsWholeDn() throws LdapException {
        Entry entry = new DefaultEntry(SCHEMA, "sn=Lee,dc=ex", "sn: Lee");
        byte[] expected = {
            3, 0, 0, 0, 0, 0, 0, 0, 0, 12, 's', 'n', '=', 'L', 'e', 'e', ',', 'd', 'c', '=', 'e', 'x', 1, 2, 0, 1, 3,
            'L', 'e', 'e'
        };
        byte[] bytes = CODEC.encode(EntryCodec.NO_PARENT, entry);
        assertArrayEquals(expected, bytes);
        StoredEntry decoded = CODEC.decode(1, ByteBuffer.wrap(bytes), null);
        assertEquals("sn=Lee,dc=ex", decoded.dn());
        assertEquals(EntryCodec.NO_PARENT, decoded.parentId());
    }

    @Test
    void theRdnIsKeptAsTheClientSpelledIt() throws LdapException {
        Entry entry = new DefaultEntry(SCHEMA, "CN = Ann+sn=Lee , dc=ex", "cn: Ann", "sn: Lee");
        byte[] bytes = CODEC.encode(4, entry);
        assertEquals("CN = Ann+sn=Lee ", EntryCodec.name(ByteBuffer.wrap(bytes)));
        assertEquals(
                "CN = Ann+sn=Lee ,DC=Ex",
                CODEC.decode(2, ByteBuffer.wrap(bytes), "DC=Ex").dn());
    }

    @Test
    void aDnIsItsNameUnderItsParentsDn() {
        assertEquals("cn=a\\,b,ou=x,dc=ex", EntryCodec.composeDn("cn=a\\,b", "ou=x,dc=ex"));
        assertEquals("dc=ex", EntryCodec.composeDn("dc=ex", null));
    }

    @Test
    void decodingWithoutTheParentsDnOrARootWithOneIsRefused() throws LdapException {
        byte[] child = CODEC.encode(42, ann());
        assertThrows(IllegalStateException.class, () -> CODEC.decode(7, ByteBuffer.wrap(child), null));
        byte[] root = CODEC.encode(EntryCodec.NO_PARENT, ann());
        assertThrows(IllegalStateException.class, () -> CODEC.decode(7, ByteBuffer.wrap(root), "dc=ex"));
    }

    @Test
    void whatIsEncodedDecodesToTheSameEntry() throws LdapException {
        byte[] bytes = CODEC.encode(42, ann());
        ByteBuffer buffer = ByteBuffer.allocateDirect(bytes.length + 3);
        buffer.put(new byte[] {9, 9, 9}).put(bytes).flip().position(3);
        StoredEntry decoded = CODEC.decode(7, buffer, "dc=ex");
        assertEquals(3, buffer.position(), "decode does not move the buffer");
        assertEquals("cn=Ann", EntryCodec.name(buffer));
        assertEquals(3, buffer.position(), "name does not move the buffer");
        assertEquals(7, decoded.id());
        assertEquals(42, decoded.parentId());
        assertEquals(42, EntryCodec.parentId(buffer));
        assertEquals("cn=Ann,dc=ex", decoded.dn());
        assertEquals(1, decoded.attributes().size());
        StoredAttribute cn = decoded.attribute(CN);
        assertEquals("CN", cn.userId());
        assertEquals(
                List.of("Ann", "Anne"), List.of(new String(cn.values()[0], UTF_8), new String(cn.values()[1], UTF_8)));
        assertEquals(SCHEMA.getAttributeType(CN), cn.type());
    }

    /** As LMDB hands a read: a direct buffer positioned at the entry, moved by the next read. */
    @Test
    void anEntryDecodedInPlaceReadsItsValuesFromTheBufferWhileItIsReadable() throws LdapException {
        Entry entry = ann();
        entry.add(SCHEMA.getAttributeType(SN), "Smith", "Smyth");
        byte[] bytes = CODEC.encode(42, entry);
        ByteBuffer memory = ByteBuffer.allocateDirect(bytes.length + 3);
        memory.put(new byte[] {9, 9, 9}).put(bytes);
        ByteBuffer buffer = memory.duplicate().position(3).limit(3 + bytes.length);
        boolean[] open = {true};

        StoredEntry decoded = CODEC.decodeInPlace(7, buffer, "dc=ex", () -> open[0]);
        assertEquals(3, buffer.position(), "decoding does not move the buffer");
        buffer.position(0).limit(1); // the transaction's next read moves its buffer

        StoredEntry copied = CODEC.decode(7, ByteBuffer.wrap(bytes), "dc=ex");
        assertEquals(copied.id(), decoded.id());
        assertEquals(copied.parentId(), decoded.parentId());
        assertEquals(copied.dn(), decoded.dn());
        assertEquals(copied.attributes().size(), decoded.attributes().size());
        for (int i = 0; i < copied.attributes().size(); i++) {
            StoredAttribute want = copied.attributes().get(i);
            StoredAttribute got = decoded.attributes().get(i);
            assertEquals(want.oid(), decoded.oidAt(i));
            assertEquals(want.userId(), got.userId());
            assertEquals(want.type(), decoded.typeAt(i));
            assertEquals(want.size(), got.size());
            for (int v = 0; v < want.size(); v++) {
                assertArrayEquals(want.values()[v], got.values()[v]);
            }
        }
    }

    /** Past its transaction the memory may hold anything: an entry read in place refuses to read it. */
    @Test
    void anEntryDecodedInPlaceRefusesToReadOnceItsTransactionHasEnded() throws LdapException {
        Entry entry = ann();
        entry.add(SCHEMA.getAttributeType(SN), "Smith");
        byte[] bytes = CODEC.encode(42, entry);
        ByteBuffer buffer = ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
        boolean[] open = {true};
        StoredEntry decoded = CODEC.decodeInPlace(7, buffer, "dc=ex", () -> open[0]);
        StoredAttribute cn = decoded.attribute(CN);
        StoredAttribute sn = decoded.attribute(SN); // made, its values not read yet
        assertArrayEquals("Ann".getBytes(UTF_8), cn.values()[0]);

        open[0] = false;

        assertEquals("cn=Ann,dc=ex", decoded.dn(), "what was decoded at once stays");
        assertArrayEquals("Ann".getBytes(UTF_8), cn.values()[0], "values copied out stay");
        assertThrows(IllegalStateException.class, sn::values);
        assertThrows(IllegalStateException.class, () -> decoded.attribute(SN));
        assertThrows(IllegalStateException.class, () -> decoded.oidAt(0));
        assertThrows(IllegalStateException.class, () -> decoded.typeAt(1));
    }

    @Test
    void aStoredEntryIsWrittenAsItsApiFormIs() throws LdapException {
        Entry entry = ann();
        entry.add(SCHEMA.getAttributeType(SN), "Smith");
        StoredEntry stored = EntryCodec.toStored(7, 42, entry);

        assertArrayEquals(
                CODEC.encode(42, entry),
                CODEC.encode(42, EntryCodec.storedName(42, entry.getDn()), stored.attributes()));
    }

    /** X.501: an attribute has a value; one without is not stored, so no reader is ever sent an empty set. */
    @Test
    void anAttributeWithoutValuesIsNotStored() throws LdapException {
        Entry entry = ann();
        entry.add(new DefaultAttribute(SCHEMA.getAttributeType(SN)));
        assertEquals(0, entry.get(SN).size());

        assertArrayEquals(CODEC.encode(42, ann()), CODEC.encode(42, entry));
        StoredAttribute empty = new StoredAttribute(SN, "sn", new byte[0][], SCHEMA.getAttributeType(SN), null);
        List<StoredAttribute> attributes =
                new ArrayList<>(EntryCodec.toStored(7, 42, ann()).attributes());
        attributes.add(empty);
        assertArrayEquals(CODEC.encode(42, ann()), CODEC.encode(42, "cn=Ann", attributes));
        assertNull(CODEC.decode(7, ByteBuffer.wrap(CODEC.encode(42, entry)), "dc=ex")
                .attribute(SN));
    }

    @Test
    void aStoredAttributeOfATypeTheSchemaNoLongerHasKeepsItsDescription() {
        StoredAttribute gone = new StoredAttribute(SN, "sn", new byte[][] {"Smith".getBytes(UTF_8)}, null, null);

        byte[] bytes = CODEC.encode(42, "cn=Ann", List.of(gone));

        StoredAttribute decoded =
                CODEC.decode(7, ByteBuffer.wrap(bytes), "dc=ex").attribute(SN);
        assertEquals("sn", decoded.userId());
        assertEquals("Smith", new String(decoded.values()[0], UTF_8));
    }

    @Test
    void aDecodedEntryHasTheEncodedAttributesInOrderEachMadeOnce() throws LdapException {
        Entry entry = ann();
        entry.add(SCHEMA.getAttributeType(SN), "Smith", "Smyth");
        List<StoredAttribute> expected = EntryCodec.toStored(7, 42, entry).attributes();
        StoredEntry decoded = CODEC.decode(7, ByteBuffer.wrap(CODEC.encode(42, entry)), "dc=ex");

        assertEquals(expected.size(), decoded.attributes().size());
        for (int i = 0; i < expected.size(); i++) {
            StoredAttribute want = expected.get(i);
            assertEquals(want.oid(), decoded.oidAt(i));
            assertEquals(want.type(), decoded.typeAt(i));
            StoredAttribute got = decoded.attribute(want.oid());
            assertSame(got, decoded.attributes().get(i), "one attribute, however it is reached");
            assertEquals(want.oid(), got.oid());
            assertEquals(want.userId(), got.userId());
            assertEquals(want.type(), got.type());
            assertEquals(want.size(), got.size());
            for (int v = 0; v < want.size(); v++) {
                assertArrayEquals(want.values()[v], got.values()[v]);
            }
        }
        assertThrows(
                UnsupportedOperationException.class, () -> decoded.attributes().remove(0));
        assertThrows(IndexOutOfBoundsException.class, () -> decoded.attributes().get(expected.size()));
        assertThrows(IndexOutOfBoundsException.class, () -> decoded.oidAt(-1));
    }

    /** Past the few attributes a search makes, the entry keeps them by index: each still made once. */
    @Test
    void anEntryOfManyAttributesMakesEachOnceInWhateverOrderTheyAreAskedFor() {
        String[] oids = {
            "2.5.4.3", "2.5.4.4", "2.5.4.42", "0.9.2342.19200300.100.1.3", "0.9.2342.19200300.100.1.1", "2.5.4.20",
            "2.5.4.13", "2.5.4.7", "2.5.4.8", "2.5.4.9", "2.5.4.12", "2.5.4.11"
        };
        Map<String, Integer> ids = new HashMap<>();
        List<StoredAttribute> attributes = new ArrayList<>();
        for (int i = 0; i < oids.length; i++) {
            ids.put(oids[i], i + 1);
            attributes.add(new StoredAttribute(
                    oids[i],
                    SCHEMA.getAttributeType(oids[i]).getName(),
                    new byte[][] {("v" + i).getBytes(UTF_8)},
                    SCHEMA.getAttributeType(oids[i]),
                    null));
        }
        EntryCodec codec = new EntryCodec(new AttributeCatalog(SCHEMA, ids));
        StoredEntry decoded = codec.decode(7, ByteBuffer.wrap(codec.encode(42, "cn=Ann", attributes)), "dc=ex");
        assertEquals(oids.length, decoded.attributes().size());

        StoredAttribute[] first = new StoredAttribute[oids.length];
        for (int index : new int[] {5, 0, 11, 5, 3, 0, 7, 9, 11, 1}) {
            StoredAttribute a = decoded.attributes().get(index);
            if (first[index] == null) {
                first[index] = a;
            }
            assertSame(first[index], a, "attribute " + index);
            assertEquals(oids[index], a.oid());
        }
        for (int i = 0; i < oids.length; i++) {
            StoredAttribute a = decoded.attribute(oids[i]);
            assertSame(decoded.attributes().get(i), a, "attribute " + i);
            if (first[i] != null) {
                assertSame(first[i], a, "attribute " + i + ", made before the entry kept them by index");
            }
            assertArrayEquals(("v" + i).getBytes(UTF_8), a.values()[0]);
        }
    }

    /** Offsets past 64 KiB (a photo, a large description) do not fit the chars nearly every entry keeps them in. */
    @Test
    void anAttributeAfterMoreThan64KiBOfValuesIsFoundWhereItStarts() {
        byte[] big = new byte[70_000];
        Arrays.fill(big, (byte) 'x');
        byte[] bytes = CODEC.encode(
                42,
                "cn=Ann",
                List.of(
                        new StoredAttribute(CN, "cn", new byte[][] {big}, SCHEMA.getAttributeType(CN), null),
                        new StoredAttribute(
                                SN, "sn", new byte[][] {"Smith".getBytes(UTF_8)}, SCHEMA.getAttributeType(SN), null)));
        ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
        for (StoredEntry decoded : List.of(
                CODEC.decode(7, ByteBuffer.wrap(bytes), "dc=ex"),
                CODEC.decodeInPlace(7, direct, "dc=ex", () -> true))) {
            assertEquals(SN, decoded.oidAt(1));
            assertEquals(SCHEMA.getAttributeType(SN), decoded.typeAt(1));
            assertArrayEquals("Smith".getBytes(UTF_8), decoded.attribute(SN).values()[0]);
            assertArrayEquals(big, decoded.attributes().get(0).values()[0]);
        }
    }

    @Test
    void aDamagedEntryIsRefusedWhenDecodedNotWhenAnAttributeIsFirstAskedFor() {
        byte[] bytes = CODEC.encode(
                42,
                "cn=Ann",
                List.of(
                        new StoredAttribute(
                                CN, "cn", new byte[][] {"Ann".getBytes(UTF_8)}, SCHEMA.getAttributeType(CN), null),
                        new StoredAttribute(
                                SN, "sn", new byte[][] {"Smith".getBytes(UTF_8)}, SCHEMA.getAttributeType(SN), null)));
        // sn's number, 2, starts the last attribute (2, 0 for its name, 1 value, 5, "Smith"): the
        // catalog knows no number 3.
        byte[] unknown = bytes.clone();
        int snAt = bytes.length - 1 - "Smith".length() - 1 - 1 - 1;
        assertEquals(2, unknown[snAt]);
        unknown[snAt] = 3;
        assertThrows(IllegalStateException.class, () -> CODEC.decode(7, ByteBuffer.wrap(unknown), "dc=ex"));
        byte[] truncated = Arrays.copyOf(bytes, bytes.length - 1);
        assertThrows(IllegalStateException.class, () -> CODEC.decode(7, ByteBuffer.wrap(truncated), "dc=ex"));
        // Read in place, an entry is walked in a copy the thread keeps: the whole entry walked first
        // leaves its bytes there, and one cut inside sn's header must not read them as its own.
        CODEC.decodeInPlace(7, direct(bytes), "dc=ex", () -> true);
        byte[] cut = Arrays.copyOf(bytes, snAt + 1);
        assertThrows(IllegalStateException.class, () -> CODEC.decodeInPlace(7, direct(cut), "dc=ex", () -> true));
    }

    private static ByteBuffer direct(byte[] bytes) {
        return ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
    }

    @Test
    void anEntryOfAnotherFormatVersionIsRefused() throws LdapException {
        byte[] bytes = CODEC.encode(1, ann());
        bytes[0] = 2; // format 2 stored the full DN where format 3 stores the RDN
        IllegalStateException refused =
                assertThrows(IllegalStateException.class, () -> CODEC.decode(5, ByteBuffer.wrap(bytes), "dc=ex"));
        assertEquals("entry 5 has unknown format version 2", refused.getMessage());
        assertThrows(IllegalStateException.class, () -> EntryCodec.name(ByteBuffer.wrap(bytes)));
    }
}
