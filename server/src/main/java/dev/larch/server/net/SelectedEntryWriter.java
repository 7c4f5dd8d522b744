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
        int attributesLength = 0;
        for (int a = 0; a < attributes; a++) {
            attributesLength += BerOut.element(attributeLength(entry, a));
        }
        int dnLength = ByteBufUtil.utf8Bytes(entry.dn());
        int operationLength = BerOut.element(dnLength) + BerOut.element(attributesLength);
        int idLength = BerOut.integerLength(entry.getMessageId());
        int messageLength = BerOut.element(idLength) + BerOut.element(operationLength);

        ByteBuf out = alloc.ioBuffer(BerOut.element(messageLength));
        BerOut.header(out, BerTags.SEQUENCE, messageLength);
        BerOut.header(out, BerTags.INTEGER, idLength);
        BerOut.integer(out, entry.getMessageId());
        BerOut.header(out, BerTags.SEARCH_RESULT_ENTRY, operationLength);
        BerOut.header(out, BerTags.OCTET_STRING, dnLength);
        ByteBufUtil.writeUtf8(out, entry.dn());
        BerOut.header(out, BerTags.SEQUENCE, attributesLength);
        for (int a = 0; a < attributes; a++) {
            // The lengths are worked out again rather than kept in arrays made for each entry sent.
            int nameLength = ByteBufUtil.utf8Bytes(entry.name(a));
            BerOut.header(out, BerTags.SEQUENCE, attributeLength(entry, a));
            BerOut.header(out, BerTags.OCTET_STRING, nameLength);
            ByteBufUtil.writeUtf8(out, entry.name(a));
            BerOut.header(out, BerTags.SET, setLength(entry.values(a)));
            for (byte[] value : entry.values(a)) {
                BerOut.header(out, BerTags.OCTET_STRING, value.length);
                out.writeBytes(value);
            }
        }
        return out;
    }

    /** The length of the value of attribute {@code a}'s SEQUENCE { type, vals }. */
    private static int attributeLength(SelectedEntry entry, int a) {
        return BerOut.element(ByteBufUtil.utf8Bytes(entry.name(a))) + BerOut.element(setLength(entry.values(a)));
    }

    /** The length of the value of the SET OF OCTET STRING holding {@code values}. */
    private static int setLength(byte[][] values) {
        int set = 0;
        for (byte[] value : values) {
            set += BerOut.element(value.length);
        }
        return set;
    }
}
