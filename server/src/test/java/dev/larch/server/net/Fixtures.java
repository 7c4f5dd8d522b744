package dev.larch.server.net;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/** LDAPMessage fixtures as bytes, each annotated with the ASN.1 it encodes (RFC 4511 §4). */
final class Fixtures {

    private Fixtures() {}

    static byte[] hex(String spaced) {
        return HexFormat.of().parseHex(spaced.replaceAll("\\s+", ""));
    }

    /**
     * <pre>
     * LDAPMessage { messageID 1, protocolOp bindRequest [APPLICATION 0] {
     *     version 3, name "cn=admin", authentication simple [0] "secret" } }
     * </pre>
     */
    static final byte[] BIND = hex("""
            30 1a
               02 01 01
               60 15
                  02 01 03
                  04 08 63 6e 3d 61 64 6d 69 6e
                  80 06 73 65 63 72 65 74
            """);

    /**
     * <pre>
     * LDAPMessage { messageID 2, protocolOp searchRequest [APPLICATION 3] {
     *     baseObject "dc=example,dc=com", scope wholeSubtree (2), derefAliases neverDerefAliases (0),
     *     sizeLimit 0, timeLimit 0, typesOnly FALSE,
     *     filter and [0] { equalityMatch [3] { "uid", "jdoe" }, present [7] "mail" },
     *     attributes { "cn" } } }
     * </pre>
     */
    static final byte[] SEARCH = hex("""
            30 42
               02 01 02
               63 3d
                  04 11 64 63 3d 65 78 61 6d 70 6c 65 2c 64 63 3d 63 6f 6d
                  0a 01 02
                  0a 01 00
                  02 01 00
                  02 01 00
                  01 01 00
                  a0 13
                     a3 0b 04 03 75 69 64 04 04 6a 64 6f 65
                     87 04 6d 61 69 6c
                  30 04 04 02 63 6e
            """);

    /**
     * {@link #SEARCH} with a broken length inside its filter: the equalityMatch claims 0x20 octets
     * where its enclosing and [0] holds 0x13 in all. Framing and envelope are intact.
     */
    static final byte[] SEARCH_FILTER_OVERRUN = hex("""
            30 42
               02 01 02
               63 3d
                  04 11 64 63 3d 65 78 61 6d 70 6c 65 2c 64 63 3d 63 6f 6d
                  0a 01 02
                  0a 01 00
                  02 01 00
                  02 01 00
                  01 01 00
                  a0 13
                     a3 20 04 03 75 69 64 04 04 6a 64 6f 65
                     87 04 6d 61 69 6c
                  30 04 04 02 63 6e
            """);

    /**
     * A searchRequest whose messageID claims 2^31 - 7 octets: with the two octets before it, past
     * the end of the int range.
     */
    static final byte[] SEARCH_HUGE_MESSAGE_ID = hex("30 08  02 84 7f ff ff f9  63 00");

    /**
     * <pre>
     * LDAPMessage { messageID 3, protocolOp searchRequest {
     *     baseObject "not a dn", scope baseObject, derefAliases never, sizeLimit 0, timeLimit 0,
     *     typesOnly FALSE, filter present [7] "cn", attributes {} } }
     * </pre>
     */
    static final byte[] SEARCH_BAD_DN = hex("""
            30 24
               02 01 03
               63 1f
                  04 08 6e 6f 74 20 61 20 64 6e
                  0a 01 00
                  0a 01 00
                  02 01 00
                  02 01 00
                  01 01 00
                  87 02 63 6e
                  30 00
            """);

    /** <pre>LDAPMessage { messageID 4, protocolOp searchResEntry [APPLICATION 4] { "cn=x", {} } }</pre> */
    static final byte[] SEARCH_RESULT_ENTRY = hex("""
            30 0d
               02 01 04
               64 08
                  04 04 63 6e 3d 78
                  30 00
            """);

    /** <pre>LDAPMessage { messageID 3, protocolOp [APPLICATION 15] (constructed, no such operation) {} }</pre> */
    static final byte[] UNKNOWN_OPERATION = hex("30 05  02 01 03  6f 00");

    /** <pre>LDAPMessage { messageID 5, protocolOp unbindRequest [APPLICATION 2] NULL }</pre> */
    static final byte[] UNBIND = hex("30 05  02 01 05  42 00");

    /** A SEQUENCE with an indefinite length (0x80), which RFC 4511 §5.1 forbids. */
    static final byte[] INDEFINITE_LENGTH = hex("30 80  02 01 01  42 00  00 00");

    /** A SEQUENCE header announcing a 2 GiB value: refused before any of the value arrives. */
    static final byte[] HUGE_HEADER = hex("30 84 7f ff ff f0");

    /**
     * A well-framed LDAPMessage whose content is broken: messageID 6, then a bindRequest whose version
     * INTEGER claims 5 octets where 1 remains.
     */
    static final byte[] BAD_BER = hex("30 08  02 01 06  60 03  02 05 03");

    /**
     * A searchRequest (messageID {@code id}, base "dc=example,dc=com", subtree) whose filter is
     * {@code depth} levels deep: {@code depth - 1} nested and [0] around present [7] "a".
     */
    static byte[] searchWithFilterDepth(int id, int depth) {
        byte[] filter = tlv(0x87, new byte[] {'a'});
        for (int i = 1; i < depth; i++) {
            filter = tlv(0xA0, filter);
        }
        return searchRequest(id, filter);
    }

    static byte[] searchRequest(int id, byte[] filter) {
        byte[] op = concat(
                tlv(0x04, "dc=example,dc=com".getBytes(StandardCharsets.UTF_8)),
                tlv(0x0A, new byte[] {2}),
                tlv(0x0A, new byte[] {0}),
                tlv(0x02, new byte[] {0}),
                tlv(0x02, new byte[] {0}),
                tlv(0x01, new byte[] {0}),
                filter,
                tlv(0x30, new byte[0]));
        return tlv(0x30, concat(tlv(0x02, new byte[] {(byte) id}), tlv(0x63, op)));
    }

    /** An LDAPMessage: SEQUENCE { messageID INTEGER (minimal, any 1..maxInt), protocolOp }. */
    static byte[] message(int id, byte[] protocolOp) {
        return tlv(0x30, concat(integer(id), protocolOp));
    }

    /** A non-negative INTEGER in its minimal two's-complement form (X.690 §8.3). */
    static byte[] integer(int value) {
        byte[] big = BigInteger.valueOf(value).toByteArray();
        return tlv(0x02, big);
    }

    /**
     * A searchRequest [APPLICATION 3]: {@code base}, scope base (0), neverDerefAliases, no limits,
     * typesOnly false, {@code filter}, no attributes.
     */
    static byte[] baseSearch(int id, String base, byte[] filter) {
        byte[] op = concat(
                tlv(0x04, base.getBytes(StandardCharsets.UTF_8)),
                tlv(0x0A, new byte[] {0}),
                tlv(0x0A, new byte[] {0}),
                tlv(0x02, new byte[] {0}),
                tlv(0x02, new byte[] {0}),
                tlv(0x01, new byte[] {0}),
                filter,
                tlv(0x30, new byte[0]));
        return message(id, tlv(0x63, op));
    }

    /** The filter {@code (objectClass=*)}: present [7] "objectClass". */
    static byte[] objectClassPresent() {
        return tlv(0x87, "objectClass".getBytes(StandardCharsets.UTF_8));
    }

    /** The filter {@code (attribute=value)}: equalityMatch [3] { attributeDesc, assertionValue }. */
    static byte[] equality(String attribute, String value) {
        return tlv(
                0xA3,
                concat(
                        tlv(0x04, attribute.getBytes(StandardCharsets.UTF_8)),
                        tlv(0x04, value.getBytes(StandardCharsets.UTF_8))));
    }

    /** A simple bindRequest [APPLICATION 0]: version 3, {@code dn}, simple [0] {@code password}. */
    static byte[] simpleBind(int id, String dn, String password) {
        byte[] op = concat(
                tlv(0x02, new byte[] {3}),
                tlv(0x04, dn.getBytes(StandardCharsets.UTF_8)),
                tlv(0x80, password.getBytes(StandardCharsets.UTF_8)));
        return message(id, tlv(0x60, op));
    }

    /** One BER element with a definite, minimal length. */
    static byte[] tlv(int tag, byte[] value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(value.length + 6);
        out.write(tag);
        int n = value.length;
        if (n < 0x80) {
            out.write(n);
        } else if (n < 0x100) {
            out.write(0x81);
            out.write(n);
        } else if (n < 0x10000) {
            out.write(0x82);
            out.write(n >> 8);
            out.write(n);
        } else {
            out.write(0x83);
            out.write(n >> 16);
            out.write(n >> 8);
            out.write(n);
        }
        out.writeBytes(value);
        return out.toByteArray();
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
