package dev.larch.server.replica;

import java.util.List;

import dev.larch.server.net.DecodingContainers;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import org.apache.directory.api.asn1.ber.Asn1Decoder;
import org.apache.directory.api.asn1.ber.tlv.TLVStateEnum;
import org.apache.directory.api.ldap.codec.api.LdapApiService;
import org.apache.directory.api.ldap.codec.api.LdapMessageContainer;
import org.apache.directory.api.ldap.model.message.Message;

/**
 * Frames what a provider sends into whole LDAPMessage PDUs (a SEQUENCE of definite length, RFC 4511
 * section 5.1) and decodes each, responses included, with the Apache codec: the Sync State and Sync Done
 * controls and the Sync Info intermediate response come out as the API's value classes, whose factories
 * the standalone codec registers. A PDU over the limit is refused as soon as its length is read, before
 * it is buffered; anything that does not decode is a {@link ProviderProtocolException} (the session then
 * closes the connection, so the rest of the stream is never read).
 *
 * <p>Stateful: one instance per channel.
 */
final class ProviderMessageDecoder extends ByteToMessageDecoder {

    private static final int SEQUENCE = 0x30;

    private final LdapMessageContainer<Message> container;
    private final int maxPduBytes;

    ProviderMessageDecoder(LdapApiService codec, int maxPduBytes) {
        this.container = DecodingContainers.newContainer(codec);
        this.maxPduBytes = maxPduBytes;
        container.setMaxPDUSize(maxPduBytes);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        int start = in.readerIndex();
        if (in.readableBytes() < 2) {
            return;
        }
        if (in.getUnsignedByte(start) != SEQUENCE) {
            throw new ProviderProtocolException("the provider sent something that is not an LDAPMessage");
        }
        int first = in.getUnsignedByte(start + 1);
        long length;
        int header;
        if (first < 0x80) {
            length = first;
            header = 2;
        } else {
            int octets = first & 0x7F;
            if (octets == 0 || octets > 4) {
                throw new ProviderProtocolException("the provider sent a PDU of indefinite or impossible length");
            }
            if (in.readableBytes() < 2 + octets) {
                return;
            }
            length = 0;
            for (int i = 0; i < octets; i++) {
                length = (length << 8) | in.getUnsignedByte(start + 2 + i);
            }
            header = 2 + octets;
        }
        if (header + length > maxPduBytes) {
            throw new ProviderProtocolException(
                    "the provider sent a PDU of " + (header + length) + " bytes, more than " + maxPduBytes);
        }
        if (in.readableBytes() < header + length) {
            return;
        }
        ByteBuf pdu = in.readSlice(header + (int) length);
        out.add(decode(pdu));
    }

    private Message decode(ByteBuf pdu) {
        try {
            Asn1Decoder.decode(pdu.nioBuffer(), container);
            if (container.getState() != TLVStateEnum.PDU_DECODED) {
                throw new ProviderProtocolException("the provider sent a truncated LDAPMessage");
            }
            return container.getMessage();
        } catch (ProviderProtocolException e) {
            throw e;
        } catch (Exception | StackOverflowError e) {
            throw new ProviderProtocolException("the provider sent a message that does not decode: " + oneLine(e));
        } finally {
            container.clean();
        }
    }

    private static String oneLine(Throwable e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        message = message.replaceAll("\\s+", " ");
        return message.length() > 200 ? message.substring(0, 200) + "..." : message;
    }
}
