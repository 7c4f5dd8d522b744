package dev.larch.server.net;

import java.nio.ByteBuffer;
import java.util.List;

import dev.larch.server.error.FailureResults;
import dev.larch.server.protocol.SubordinateScope;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageDecoder;
import org.apache.directory.api.asn1.DecoderException;
import org.apache.directory.api.asn1.ber.Asn1Decoder;
import org.apache.directory.api.asn1.ber.tlv.TLVStateEnum;
import org.apache.directory.api.ldap.codec.api.LdapApiService;
import org.apache.directory.api.ldap.codec.api.LdapMessageContainer;
import org.apache.directory.api.ldap.codec.api.ResponseCarryingException;
import org.apache.directory.api.ldap.model.message.ExtendedRequest;
import org.apache.directory.api.ldap.model.message.Message;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.message.SearchRequest;
import org.apache.directory.api.ldap.model.message.SearchResultDoneImpl;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static java.nio.charset.StandardCharsets.US_ASCII;

/**
 * Turns one framed PDU (from {@link LdapFrameDecoder}) into one Apache LDAP API {@link Message}.
 * Failures become {@link InboundError}s: the codec's {@link ResponseCarryingException} is a
 * {@link InboundError.Reply} (the frame boundary is trustworthy, so the connection survives); any other
 * decoding failure is a {@link InboundError.Disconnect}. A SearchRequest is screened first, straight
 * from the BER: a filter nested deeper than the limit (protocolError) or with more elements than the
 * limit (adminLimitExceeded) is answered without being decoded, and broken lengths on the way to it
 * disconnect. The common SearchRequest, without controls, is then read straight from the BER by
 * {@link SearchRequestReader}, into the same model; everything else goes to the Apache decoder.
 *
 * <p>Stateful (reuses one decoding container and the screening state): one instance per channel.
 * Public, with {@link #decode(ByteBuf)}, so that benchmarks can measure decoding without a channel.
 */
public final class LdapMessageDecoder extends MessageToMessageDecoder<ByteBuf> {

    private static final Logger LOG = LoggerFactory.getLogger(LdapMessageDecoder.class);

    private final LdapMessageContainer<Message> container;
    private final LdapMessageEnvelope envelope = new LdapMessageEnvelope();
    private final BerHeader nameHeader = new BerHeader();

    /** The longest request name quoted back in an error. */
    private static final int MAX_OID_CHARS = 128;

    private final SearchFilterDepth filterDepth;
    private final SearchRequestReader searchReader = new SearchRequestReader();
    /** The size of the PDU decoded last, for the dispatcher's count of the bytes a connection holds. */
    private int lastPduBytes;

    private final int maxPduBytes;
    private final int maxFilterDepth;
    private final int maxFilterElements;

    /** A decoder with the default filter element limit. */
    public LdapMessageDecoder(LdapApiService codec, int maxPduBytes, int maxFilterDepth) {
        this(codec, maxPduBytes, maxFilterDepth, ListenerOptions.DEFAULT_MAX_FILTER_ELEMENTS);
    }

    public LdapMessageDecoder(LdapApiService codec, int maxPduBytes, int maxFilterDepth, int maxFilterElements) {
        super(ByteBuf.class);
        this.container = DecodingContainers.newContainer(codec);
        this.container.setMaxPDUSize(maxPduBytes);
        this.filterDepth = new SearchFilterDepth(maxFilterDepth, maxFilterElements);
        this.maxPduBytes = maxPduBytes;
        this.maxFilterDepth = maxFilterDepth;
        this.maxFilterElements = maxFilterElements;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf pdu, List<Object> out) {
        lastPduBytes = pdu.readableBytes();
        out.add(decode(pdu));
    }

    /**
     * The size, tag and length included, of the PDU whose message this decoder handed on last: read by
     * the next handler while it handles that message (one PDU, one message, passed on at once).
     */
    int lastPduBytes() {
        return lastPduBytes;
    }

    /**
     * Decodes one whole LDAPMessage, as {@link LdapFrameDecoder} frames it, without moving its
     * indices or releasing it.
     *
     * @return the decoded {@link Message}, or the error the dispatcher answers in its place
     */
    public Object decode(ByteBuf pdu) {
        // A broken envelope is left to the Apache decoder, which refuses it as it always has.
        boolean enveloped = envelope.read(pdu);
        if (enveloped && envelope.protocolOpTag() == BerTags.SEARCH_REQUEST) {
            switch (filterDepth.measure(pdu, envelope.protocolOpValueIndex(), envelope.protocolOpEnd())) {
                case TOO_DEEP -> {
                    return filterTooDeep(envelope.messageId());
                }
                case TOO_MANY_ELEMENTS -> {
                    return filterTooLarge(envelope.messageId());
                }
                case MALFORMED -> {
                    LOG.debug("SearchRequest with broken BER lengths");
                    return InboundError.Disconnect.protocolError("malformed PDU");
                }
                case WITHIN_LIMIT -> {
                    if (filterDepth.beyondTheCodec()) {
                        return decodePatched(pdu);
                    }
                    SearchRequest direct = readDirectly(pdu);
                    if (direct != null) {
                        return direct;
                    }
                }
            }
        }
        Object decoded = decode(pdu.nioBuffer());
        if (enveloped
                && envelope.protocolOpTag() == BerTags.EXTENDED_REQUEST
                && decoded instanceof ExtendedRequest request
                && request.getRequestName() == null) {
            // The codec leaves the name unset on requests it has no factory for; the error names it.
            request.setRequestName(requestName(pdu, envelope.protocolOpValueIndex(), envelope.protocolOpEnd()));
        }
        return decoded;
    }

    /**
     * The common SearchRequest without controls, read straight from the BER; null leaves it to the
     * Apache decoder. Only PDUs that decoder would take by size come here, so its size check holds.
     */
    private SearchRequest readDirectly(ByteBuf pdu) {
        if (envelope.protocolOpEnd() != pdu.writerIndex() || pdu.readableBytes() > maxPduBytes) {
            return null;
        }
        return searchReader.read(pdu, envelope.messageId(), envelope.protocolOpValueIndex(), envelope.protocolOpEnd());
    }

    /** A search with the subordinates scope or an absolute true/false filter, which the codec refuses as it is. */
    private Object decodePatched(ByteBuf pdu) {
        SearchRequestPatch.Patched patched;
        try {
            patched = SearchRequestPatch.patch(pdu);
        } catch (IllegalArgumentException e) {
            return malformed(e);
        }
        Object decoded = decode(ByteBuffer.wrap(patched.pdu()));
        if (patched.subordinates() && decoded instanceof Message message) {
            SubordinateScope.mark(message);
        }
        return decoded;
    }

    private Object decode(ByteBuffer buffer) {
        try {
            Asn1Decoder.decode(buffer, container);
            if (container.getState() != TLVStateEnum.PDU_DECODED) {
                return InboundError.Disconnect.protocolError("malformed PDU: truncated");
            }
            if (buffer.hasRemaining()) {
                return InboundError.Disconnect.protocolError("malformed PDU: trailing bytes");
            }
            return container.getMessage();
        } catch (ResponseCarryingException e) {
            if (e.getResponse() instanceof ResultResponse response) {
                LOG.debug("request refused by the decoder: {}", e.getMessage());
                var result = response.getLdapResult();
                result.setDiagnosticMessage(FailureResults.safe(result.getDiagnosticMessage()));
                return new InboundError.Reply(response);
            }
            return malformed(e);
        } catch (DecoderException | RuntimeException | StackOverflowError e) {
            return malformed(e);
        } finally {
            container.clean();
        }
    }

    /** The requestName ([0] LDAPOID) of the ExtendedRequest whose value is {@code [valueIndex, end)}; null if absent. */
    private String requestName(ByteBuf pdu, int valueIndex, int end) {
        if (nameHeader.readElement(pdu, valueIndex, end) != BerHeader.Status.COMPLETE
                || nameHeader.tag() != BerTags.EXTENDED_REQUEST_NAME
                || nameHeader.valueLength() > MAX_OID_CHARS) {
            return null;
        }
        String name = pdu.toString(nameHeader.valueIndex(), nameHeader.valueLength(), US_ASCII);
        // Shown in a diagnostic message: only what an OID may hold.
        return name.matches("[0-9.]+") ? name : null;
    }

    private static InboundError malformed(Throwable e) {
        LOG.debug("undecodable PDU", e);
        return InboundError.Disconnect.protocolError("malformed PDU");
    }

    private InboundError filterTooDeep(int messageId) {
        return searchRefused(messageId, ResultCodeEnum.PROTOCOL_ERROR, "filter nested deeper than " + maxFilterDepth);
    }

    /** A well-formed filter the server will not evaluate: a server limit, so adminLimitExceeded. */
    private InboundError filterTooLarge(int messageId) {
        return searchRefused(
                messageId,
                ResultCodeEnum.ADMIN_LIMIT_EXCEEDED,
                "filter has more than " + maxFilterElements + " elements (listen.max-filter-elements)");
    }

    private static InboundError searchRefused(int messageId, ResultCodeEnum code, String message) {
        SearchResultDoneImpl done = new SearchResultDoneImpl(messageId);
        done.getLdapResult().setResultCode(code);
        done.getLdapResult().setDiagnosticMessage(message);
        return new InboundError.Reply(done);
    }
}
