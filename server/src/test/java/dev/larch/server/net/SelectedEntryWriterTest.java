package dev.larch.server.net;

import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import com.unboundid.asn1.ASN1StreamReader;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.SearchResultEntryProtocolOp;
import com.unboundid.ldap.sdk.Attribute;
import dev.larch.server.protocol.SelectedEntry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.apache.directory.api.ldap.codec.api.LdapApiServiceFactory;
import org.apache.directory.api.ldap.model.message.controls.PagedResultsImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The entries a search sends, written straight from their value bytes, are the PDUs the Apache API's
 * encoder writes for the same entry, and what a standard client (UnboundID's SDK) reads back is
 * every attribute and value in the order they were selected.
 */
class SelectedEntryWriterTest {
    private final LdapMessageEncoder encoder = new LdapMessageEncoder(LdapApiServiceFactory.getSingleton());

    /** Message IDs and value sizes on both sides of each change in the BER forms of integers and lengths. */
    @ParameterizedTest
    @ValueSource(ints = {0, 1, 127, 128, 255, 256, 32767, 32768, 65535, 65536, 8388607, 8388608, Integer.MAX_VALUE})
    void aOneAttributeEntryIsTheApiEncodersPduByteForByte(int messageId) throws Exception {
        for (int valueLength : new int[] {0, 1, 127, 128, 255, 256, 65535, 65536}) {
            SelectedEntry entry = new SelectedEntry(messageId, "uid=é" + valueLength + ",ou=People,dc=example,dc=com");
            entry.add("description", new byte[][] {filled(valueLength, 'x'), "second".getBytes(UTF_8)});
            byte[] direct = bytes(encoder.encode(UnpooledByteBufAllocator.DEFAULT, entry));
            entry.getEntry(); // built: the API's encoder writes it from here on
            assertFalse(entry.isPlain());
            byte[] api = bytes(encoder.encode(UnpooledByteBufAllocator.DEFAULT, entry));
            assertArrayEquals(api, direct, "message " + messageId + ", value of " + valueLength + " bytes");
        }
    }

    @Test
    void aTypesOnlyAttributeIsTheApiEncodersEmptySet() throws Exception {
        SelectedEntry entry = new SelectedEntry(9, "cn=x");
        entry.addType("objectClass");
        byte[] direct = bytes(encoder.encode(UnpooledByteBufAllocator.DEFAULT, entry));
        entry.getEntry();
        assertArrayEquals(bytes(encoder.encode(UnpooledByteBufAllocator.DEFAULT, entry)), direct);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 42, 20261129})
    void aStandardClientReadsEveryAttributeAndValueInOrder(long seed) throws Exception {
        Random random = new Random(seed);
        for (int round = 0; round < 50; round++) {
            SelectedEntry entry = new SelectedEntry(random.nextInt(Integer.MAX_VALUE), "cn=" + round + ",dc=example");
            List<String> names = new ArrayList<>();
            List<byte[][]> values = new ArrayList<>();
            int attributes = random.nextInt(40);
            for (int a = 0; a < attributes; a++) {
                String name = "attr" + a + (random.nextBoolean() ? ";lang-fr" : "");
                byte[][] v = new byte[random.nextInt(5)][];
                for (int i = 0; i < v.length; i++) {
                    v[i] = filled(random.nextInt(random.nextBoolean() ? 100 : 70_000), (char) ('a' + i));
                }
                names.add(name);
                values.add(v);
                entry.add(name, v);
            }
            LDAPMessage read = readBack(bytes(encoder.encode(UnpooledByteBufAllocator.DEFAULT, entry)));
            assertEquals(entry.getMessageId(), read.getMessageID());
            SearchResultEntryProtocolOp op = read.getSearchResultEntryProtocolOp();
            assertEquals(entry.dn(), op.getDN());
            List<Attribute> got = op.getAttributes();
            assertEquals(names.size(), got.size());
            for (int a = 0; a < names.size(); a++) {
                assertEquals(names.get(a), got.get(a).getName());
                assertEquals(values.get(a).length, got.get(a).size(), names.get(a));
                for (int i = 0; i < values.get(a).length; i++) {
                    assertArrayEquals(values.get(a)[i], got.get(a).getValueByteArrays()[i]);
                }
            }
        }
    }

    @Test
    void anEntryAHandlerChangedIsSentAsChanged() throws Exception {
        SelectedEntry entry = new SelectedEntry(3, "cn=x");
        entry.add("cn", new byte[][] {"x".getBytes(UTF_8)});
        entry.add("memberOf", new byte[][] {"cn=g".getBytes(UTF_8)});
        entry.getEntry().removeAttributes("memberOf");
        SearchResultEntryProtocolOp op = readBack(bytes(encoder.encode(UnpooledByteBufAllocator.DEFAULT, entry)))
                .getSearchResultEntryProtocolOp();
        assertEquals(1, op.getAttributes().size());
        assertEquals("cn", op.getAttributes().get(0).getName());
    }

    @Test
    void anEntryWithAControlIsSentWithIt() throws Exception {
        SelectedEntry entry = new SelectedEntry(4, "cn=x");
        entry.add("cn", new byte[][] {"x".getBytes(UTF_8)});
        entry.addControl(new PagedResultsImpl());
        assertFalse(entry.isPlain());
        LDAPMessage read = readBack(bytes(encoder.encode(UnpooledByteBufAllocator.DEFAULT, entry)));
        assertEquals(1, read.getControls().size());
        assertNotNull(read.getSearchResultEntryProtocolOp());
    }

    @Test
    void aPlainEntryStaysPlainUntilItsApiFormIsAskedFor() {
        SelectedEntry entry = new SelectedEntry(5, "cn=x");
        entry.add("cn", new byte[][] {"x".getBytes(UTF_8)});
        assertEquals("cn=x", entry.getObjectName().getName());
        assertTrue(entry.isPlain(), "the DN alone builds nothing");
        assertEquals(1, entry.getEntry().size());
        assertFalse(entry.isPlain());
    }

    private static LDAPMessage readBack(byte[] pdu) throws Exception {
        try (ASN1StreamReader in = new ASN1StreamReader(new ByteArrayInputStream(pdu))) {
            LDAPMessage message = LDAPMessage.readFrom(in, true);
            assertEquals(-1, in.peek(), "bytes after the message");
            return message;
        }
    }

    private static byte[] filled(int length, char c) {
        byte[] b = new byte[length];
        Arrays.fill(b, (byte) c);
        return b;
    }

    private static byte[] bytes(ByteBuf pdu) {
        try {
            return ByteBufUtil.getBytes(pdu);
        } finally {
            pdu.release();
        }
    }
}
