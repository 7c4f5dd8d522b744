package dev.larch.server.net;

import dev.larch.server.protocol.SelectedEntry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;

/**
 * Writes a {@linkplain SelectedEntry#isPlain() plain} {@link SelectedEntry} as its LDAPMessage
 * straight from the stored value bytes into one buffer sized to fit (RFC 4511 section 4.5.2; BER with
 * definite, shortest lengths, as the API's encoder writes them):
 *
 * <pre>
 * SEQUENCE { messageID INTEGER, [APPLICATION 4] { objectName OCTET STRING,
 *   attributes SEQUENCE OF SEQUENCE { type OCTET STRING, vals SET OF OCTET STRING } } }
 * </pre>
 *
 * Lengths are summed first, then every byte is written once: no intermediate entry, attribute,
 * value or reversed buffer (the API's encoder builds the PDU backwards in an array, then copies it).
 *
 * <p>Stateless and thread-safe.
 */
final class SelectedEntryWriter {

    private SelectedEntryWriter() {}

    /** The encoded message in a new buffer from {@code alloc}, which the caller releases. */
    static ByteBuf write(ByteBufAllocator alloc, SelectedEntry entry) {
        int attributes = entry.size();
        int[] nameLengths = new int[attributes];
        int[] setLengths = new int[attributes];
        int attributesLength = 0;
        for (int a = 0; a < attributes; a++) {
            nameLengths[a] = ByteBufUtil.utf8Bytes(entry.name(a));
            int set = 0;
            for (byte[] value : entry.values(a)) {
                set += element(value.length);
            }
            setLengths[a] = set;
            attributesLength += element(element(nameLengths[a]) + element(set));
        }
        int dnLength = ByteBufUtil.utf8Bytes(entry.dn());
        int operationLength = element(dnLength) + element(attributesLength);
        int idLength = integerLength(entry.getMessageId());
        int messageLength = element(idLength) + element(operationLength);

        ByteBuf out = alloc.ioBuffer(element(messageLength));
        header(out, BerTags.SEQUENCE, messageLength);
        header(out, BerTags.INTEGER, idLength);
        for (int shift = 8 * (idLength - 1); shift >= 0; shift -= 8) {
            out.writeByte(entry.getMessageId() >>> shift);
        }
        header(out, BerTags.SEARCH_RESULT_ENTRY, operationLength);
        header(out, BerTags.OCTET_STRING, dnLength);
        ByteBufUtil.writeUtf8(out, entry.dn());
        header(out, BerTags.SEQUENCE, attributesLength);
        for (int a = 0; a < attributes; a++) {
            header(out, BerTags.SEQUENCE, element(nameLengths[a]) + element(setLengths[a]));
            header(out, BerTags.OCTET_STRING, nameLengths[a]);
            ByteBufUtil.writeUtf8(out, entry.name(a));
            header(out, BerTags.SET, setLengths[a]);
            for (byte[] value : entry.values(a)) {
                header(out, BerTags.OCTET_STRING, value.length);
                out.writeBytes(value);
            }
        }
        return out;
    }

    /** The size of an element whose contents take {@code length} octets: tag, length, contents. */
    private static int element(int length) {
        return 1 + lengthOctets(length) + length;
    }

    private static int lengthOctets(int length) {
        if (length < 0x80) {
            return 1;
        }
        return 1 + (Integer.SIZE - Integer.numberOfLeadingZeros(length) + 7) / 8;
    }

    private static void header(ByteBuf out, int tag, int length) {
        out.writeByte(tag);
        if (length < 0x80) {
            out.writeByte(length);
            return;
        }
        int octets = lengthOctets(length) - 1;
        out.writeByte(0x80 | octets);
        for (int shift = 8 * (octets - 1); shift >= 0; shift -= 8) {
            out.writeByte(length >>> shift);
        }
    }

    /** The octets of a non-negative INTEGER's shortest two's-complement form. */
    private static int integerLength(int value) {
        if (value < 0x80) {
            return 1;
        }
        if (value < 0x8000) {
            return 2;
        }
        return value < 0x800000 ? 3 : 4;
    }
}
