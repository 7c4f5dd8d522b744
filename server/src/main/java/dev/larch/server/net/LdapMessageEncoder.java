package dev.larch.server.net;

import java.nio.ByteBuffer;
import java.util.List;

import dev.larch.server.protocol.SelectedEntry;
import dev.larch.server.protocol.WireResultCode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageEncoder;
import org.apache.directory.api.asn1.EncoderException;
import org.apache.directory.api.asn1.util.Asn1Buffer;
import org.apache.directory.api.ldap.codec.api.LdapApiService;
import org.apache.directory.api.ldap.codec.api.LdapEncoder;
import org.apache.directory.api.ldap.model.message.Control;
import org.apache.directory.api.ldap.model.message.ExtendedResponse;
import org.apache.directory.api.ldap.model.message.LdapResult;
import org.apache.directory.api.ldap.model.message.Message;
import org.apache.directory.api.ldap.model.message.OpaqueExtendedResponse;
import org.apache.directory.api.ldap.model.message.SearchResultDone;

/**
 * Encodes each outbound {@link Message} into one buffer: a search's entries as they were selected
 * ({@link SelectedEntryWriter}) and its plain done ({@link PlainDoneWriter}) directly, everything
 * else with the Apache LDAP API. An encoding
 * failure fails the write's promise; the dispatcher writes with the channel's void promise, so the
 * failure reaches its {@code exceptionCaught}, which logs it and closes the connection.
 *
 * <p>Stateful (reuses one {@link Asn1Buffer}): one instance per channel, used on its event loop only.
 * Public, with {@link #encode(ByteBufAllocator, Message)}, so that benchmarks can measure encoding
 * without a channel.
 */
public final class LdapMessageEncoder extends MessageToMessageEncoder<Message> {

    private final LdapApiService codec;
    private final Asn1Buffer buffer = new Asn1Buffer();

    public LdapMessageEncoder(LdapApiService codec) {
        super(Message.class);
        this.codec = codec;
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, Message message, List<Object> out) throws EncoderException {
        out.add(encode(ctx.alloc(), message));
    }

    /** Encodes {@code message} into a new buffer from {@code alloc}, which the caller releases. */
    public ByteBuf encode(ByteBufAllocator alloc, Message message) throws EncoderException {
        if (message instanceof SelectedEntry entry && entry.isPlain()) {
            return SelectedEntryWriter.write(alloc, entry);
        }
        if (message instanceof SearchResultDone done && PlainDoneWriter.applies(done)) {
            return PlainDoneWriter.write(alloc, done);
        }
        try {
            ByteBuffer encoded = LdapEncoder.encodeMessage(buffer, codec, opaqueIfExtended(message));
            if (EmptyResponseValue.applies(message)) {
                encoded = ByteBuffer.wrap(EmptyResponseValue.append(encoded));
            }
            ByteBuf pdu = alloc.ioBuffer(encoded.remaining());
            pdu.writeBytes(encoded);
            int wireCode = WireResultCode.of(message);
            if (wireCode != 0) {
                writeResultCode(pdu, wireCode);
            }
            return pdu;
        } finally {
            buffer.clear();
        }
    }

    /**
     * Writes {@code code} over the resultCode of the encoded response in {@code pdu}: LDAPMessage {
     * messageID, protocolOp { resultCode ENUMERATED, ... } }, whose placeholder has as many value
     * octets as {@code code} needs ({@link WireResultCode#placeholder}). A PDU of another shape, or a
     * resultCode of another size, keeps the code the enumeration gave it.
     */
    static void writeResultCode(ByteBuf pdu, int code) {
        int index = pdu.readerIndex();
        index = skipHeader(pdu, index); // LDAPMessage SEQUENCE
        if (index < 0 || pdu.getUnsignedByte(index) != 0x02) {
            return;
        }
        index = skipHeader(pdu, index);
        if (index < 0) {
            return;
        }
        index += pdu.getUnsignedByte(index - 1); // past the messageID's value (a short-form length)
        index = skipHeader(pdu, index); // protocolOp
        int octets = WireResultCode.octets(code);
        if (index < 0
                || index + 1 + octets >= pdu.writerIndex()
                || pdu.getUnsignedByte(index) != 0x0A
                || pdu.getUnsignedByte(index + 1) != octets) {
            return;
        }
        for (int i = 0; i < octets; i++) {
            pdu.setByte(index + 2 + i, code >>> (8 * (octets - 1 - i)));
        }
    }

    /** The index after the tag and length at {@code index}, or -1 past the end. */
    private static int skipHeader(ByteBuf pdu, int index) {
        if (index + 2 > pdu.writerIndex()) {
            return -1;
        }
        int length = pdu.getUnsignedByte(index + 1);
        int header = length < 0x80 ? 2 : 2 + (length & 0x7F);
        return index + header <= pdu.writerIndex() ? index + header : -1;
    }

    /**
     * An error answer to an extended request the codec has a factory for (Cancel, StartTLS, Who Am I
     * refused for a critical control...) is that factory's typed response, built by
     * {@code getResultResponse()} without a response name; the Apache encoder then takes it for an
     * opaque response and fails with a ClassCastException (and the other way round for a named one).
     * The server never sends a typed response value, so such a response is written as an opaque
     * response: the same result, no name (optional, RFC 4511 §4.12), no value.
     */
    private static Message opaqueIfExtended(Message message) {
        if (!(message instanceof ExtendedResponse typed) || message instanceof OpaqueExtendedResponse) {
            return message;
        }
        // Without the name too: a name with a codec factory (Password Modify) would send it back to the factory.
        OpaqueExtendedResponse opaque = new OpaqueExtendedResponse(typed.getMessageId());
        LdapResult from = typed.getLdapResult();
        LdapResult to = opaque.getLdapResult();
        to.setResultCode(from.getResultCode());
        to.setMatchedDn(from.getMatchedDn());
        to.setDiagnosticMessage(from.getDiagnosticMessage());
        to.setReferral(from.getReferral());
        opaque.addAllControls(typed.getControls().values().toArray(new Control[0]));
        return opaque;
    }
}
