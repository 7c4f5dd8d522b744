package dev.larch.server.search;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;

import dev.larch.server.net.DecodingContainers;
import org.apache.directory.api.asn1.DecoderException;
import org.apache.directory.api.asn1.ber.Asn1Decoder;
import org.apache.directory.api.ldap.codec.api.LdapApiServiceFactory;
import org.apache.directory.api.ldap.codec.api.LdapMessageContainer;
import org.apache.directory.api.ldap.model.filter.ExprNode;
import org.apache.directory.api.ldap.model.message.Message;
import org.apache.directory.api.ldap.model.message.SearchRequest;

/**
 * Decodes one BER-encoded LDAP Filter (RFC 4511 section 4.5.1.7) found outside a SearchRequest (a
 * control value): the Apache API has no public decoder for a lone filter, so the bytes are wrapped in
 * a SearchRequest for its own decoder, which then enforces the filter grammar.
 *
 * <p>Stateless and thread-safe.
 */
public final class BerFilter {
    private BerFilter() {}

    /** The filter encoded by exactly {@code value}, or null when it is absent or not one filter. */
    public static ExprNode decode(byte[] value) {
        if (value == null || value.length == 0) {
            return null;
        }
        ByteArrayOutputStream search = new ByteArrayOutputStream(value.length + 24);
        // baseObject "", scope base, derefAliases never, sizeLimit 0, timeLimit 0, typesOnly false
        search.writeBytes(new byte[] {
            0x04, 0x00, 0x0A, 0x01, 0x00, 0x0A, 0x01, 0x00, 0x02, 0x01, 0x00, 0x02, 0x01, 0x00, 0x01, 0x01, 0x00
        });
        search.writeBytes(value);
        search.writeBytes(new byte[] {0x30, 0x00}); // attributes
        ByteArrayOutputStream op = new ByteArrayOutputStream();
        op.writeBytes(new byte[] {0x02, 0x01, 0x01}); // messageID 1
        writeElement(op, 0x63, search.toByteArray());
        ByteArrayOutputStream pdu = new ByteArrayOutputStream();
        writeElement(pdu, 0x30, op.toByteArray());
        LdapMessageContainer<Message> container = DecodingContainers.newContainer(LdapApiServiceFactory.getSingleton());
        try {
            ByteBuffer buffer = ByteBuffer.wrap(pdu.toByteArray());
            Asn1Decoder.decode(buffer, container);
            if (container.getMessage() instanceof SearchRequest decoded && !buffer.hasRemaining()) {
                return decoded.getFilter();
            }
        } catch (DecoderException | RuntimeException e) {
            // not a filter: below
        }
        return null;
    }

    private static void writeElement(ByteArrayOutputStream out, int tag, byte[] value) {
        out.write(tag);
        int length = value.length;
        if (length < 0x80) {
            out.write(length);
        } else {
            int octets = length > 0xFFFF ? 3 : length > 0xFF ? 2 : 1;
            out.write(0x80 | octets);
            for (int i = octets - 1; i >= 0; i--) {
                out.write(length >>> (8 * i));
            }
        }
        out.writeBytes(value);
    }
}
