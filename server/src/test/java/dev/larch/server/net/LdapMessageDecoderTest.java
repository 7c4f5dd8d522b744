package dev.larch.server.net;

import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.apache.directory.api.ldap.codec.api.LdapApiService;
import org.apache.directory.api.ldap.codec.api.LdapApiServiceFactory;
import org.apache.directory.api.ldap.model.filter.AndNode;
import org.apache.directory.api.ldap.model.filter.ExprNode;
import org.apache.directory.api.ldap.model.message.BindRequest;
import org.apache.directory.api.ldap.model.message.Message;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.SearchRequest;
import org.apache.directory.api.ldap.model.message.SearchResultDone;
import org.apache.directory.api.ldap.model.message.SearchResultEntry;
import org.apache.directory.api.ldap.model.message.SearchScope;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Frame decoder + message decoder + encoder, as in the pipeline; every decode is re-encoded. */
class LdapMessageDecoderTest {

    private static final LdapApiService CODEC = LdapApiServiceFactory.getSingleton();
    private static final int MAX_DEPTH = 50;

    private static EmbeddedChannel channel() {
        return new EmbeddedChannel(
                new LdapFrameDecoder(1 << 20),
                new LdapMessageDecoder(CODEC, 1 << 20, MAX_DEPTH),
                new LdapMessageEncoder(CODEC));
    }

    private static Object decodeWhole(byte[] pdu) {
        EmbeddedChannel ch = channel();
        ch.writeInbound(Unpooled.wrappedBuffer(pdu));
        Object decoded = ch.readInbound();
        assertNull(ch.readInbound());
        assertFalse(ch.finishAndReleaseAll());
        return decoded;
    }

    private static Object decodeByteByByte(byte[] pdu) {
        EmbeddedChannel ch = channel();
        for (byte b : pdu) {
            ch.writeInbound(Unpooled.wrappedBuffer(new byte[] {b}));
        }
        Object decoded = ch.readInbound();
        assertNull(ch.readInbound());
        assertFalse(ch.finishAndReleaseAll());
        return decoded;
    }

    private static byte[] encode(Message message) {
        EmbeddedChannel ch = channel();
        ch.writeOutbound(message);
        ByteBuf out = ch.readOutbound();
        try {
            return ByteBufUtil.getBytes(out);
        } finally {
            out.release();
            assertFalse(ch.finishAndReleaseAll());
        }
    }

    @Test
    void bindRequestDecodesAndReEncodes() {
        for (Object decoded : new Object[] {decodeWhole(Fixtures.BIND), decodeByteByByte(Fixtures.BIND)}) {
            BindRequest bind = assertInstanceOf(BindRequest.class, decoded);
            assertEquals(1, bind.getMessageId());
            assertEquals("cn=admin", bind.getName());
            assertTrue(bind.isSimple());
            assertArrayEquals(Fixtures.BIND, encode(bind));
        }
    }

    @Test
    void searchRequestDecodesAndReEncodes() {
        for (Object decoded : new Object[] {decodeWhole(Fixtures.SEARCH), decodeByteByByte(Fixtures.SEARCH)}) {
            SearchRequest search = assertInstanceOf(SearchRequest.class, decoded);
            assertEquals(2, search.getMessageId());
            assertEquals("dc=example,dc=com", search.getBase().getName());
            assertEquals(SearchScope.SUBTREE, search.getScope());
            assertEquals("(&(uid=jdoe)(mail=*))", search.getFilter().toString());
            assertEquals(List.of("cn"), search.getAttributes());
            assertArrayEquals(Fixtures.SEARCH, encode(search));
        }
    }

    @Test
    void responseTypesDecodeSoTheDispatcherCanRefuseThem() {
        SearchResultEntry entry = assertInstanceOf(SearchResultEntry.class, decodeWhole(Fixtures.SEARCH_RESULT_ENTRY));
        assertEquals(4, entry.getMessageId());
        assertArrayEquals(Fixtures.SEARCH_RESULT_ENTRY, encode(entry));
    }

    @Test
    void unparsableBaseDnIsAnsweredWithInvalidDnSyntax() {
        InboundError.Reply reply = assertInstanceOf(InboundError.Reply.class, decodeWhole(Fixtures.SEARCH_BAD_DN));
        SearchResultDone done = assertInstanceOf(SearchResultDone.class, reply.response());
        assertEquals(3, done.getMessageId());
        assertEquals(ResultCodeEnum.INVALID_DN_SYNTAX, done.getLdapResult().getResultCode());
    }

    @Test
    void theDecoderRecoversAfterARefusedRequest() {
        EmbeddedChannel ch = channel();
        ch.writeInbound(Unpooled.wrappedBuffer(Fixtures.concat(Fixtures.SEARCH_BAD_DN, Fixtures.BIND)));
        assertInstanceOf(InboundError.Reply.class, ch.readInbound());
        assertInstanceOf(BindRequest.class, ch.readInbound());
        assertFalse(ch.finishAndReleaseAll());
    }

    @Test
    void unknownOperationDisconnects() {
        assertInstanceOf(InboundError.Disconnect.class, decodeWhole(Fixtures.UNKNOWN_OPERATION));
    }

    @Test
    void badBerInsideAFrameDisconnects() {
        assertInstanceOf(InboundError.Disconnect.class, decodeWhole(Fixtures.BAD_BER));
        assertInstanceOf(InboundError.Disconnect.class, decodeByteByByte(Fixtures.BAD_BER));
    }

    @Test
    void filterAtTheDepthLimitDecodes() {
        byte[] pdu = Fixtures.searchWithFilterDepth(7, MAX_DEPTH);
        SearchRequest search = assertInstanceOf(SearchRequest.class, decodeWhole(pdu));
        int depth = 0;
        for (ExprNode node = search.getFilter(); node != null; depth++) {
            node = node instanceof AndNode and ? and.getFirstChild() : null;
        }
        assertEquals(MAX_DEPTH, depth);
        assertArrayEquals(pdu, encode(search));
    }

    @Test
    void filterOneLevelTooDeepIsRefusedWithItsMessageId() {
        InboundError.Reply reply = assertInstanceOf(
                InboundError.Reply.class, decodeWhole(Fixtures.searchWithFilterDepth(8, MAX_DEPTH + 1)));
        assertEquals(8, reply.response().getMessageId());
        assertEquals(
                ResultCodeEnum.PROTOCOL_ERROR, reply.response().getLdapResult().getResultCode());
        assertEquals(
                "filter nested deeper than " + MAX_DEPTH,
                reply.response().getLdapResult().getDiagnosticMessage());
    }

    @Test
    void filterWithMoreElementsThanTheLimitIsAdminLimitExceededNamingTheKey() {
        byte[] equality = Fixtures.tlv(
                0xA3, Fixtures.concat(Fixtures.tlv(0x04, new byte[] {'c', 'n'}), Fixtures.tlv(0x04, new byte[] {'a'})));
        // (|(cn=a)(cn=a)) has 3 elements, (|(cn=a)(cn=a)(cn=a)) 4.
        byte[] three = Fixtures.searchRequest(5, Fixtures.tlv(0xA1, Fixtures.concat(equality, equality)));
        byte[] four = Fixtures.searchRequest(6, Fixtures.tlv(0xA1, Fixtures.concat(equality, equality, equality)));
        EmbeddedChannel ch = new EmbeddedChannel(
                new LdapFrameDecoder(1 << 20), new LdapMessageDecoder(CODEC, 1 << 20, MAX_DEPTH, 3));
        ch.writeInbound(Unpooled.wrappedBuffer(three), Unpooled.wrappedBuffer(four));
        assertInstanceOf(SearchRequest.class, ch.readInbound());
        InboundError.Reply reply = assertInstanceOf(InboundError.Reply.class, ch.readInbound());
        assertEquals(6, reply.response().getMessageId());
        assertEquals(
                ResultCodeEnum.ADMIN_LIMIT_EXCEEDED,
                reply.response().getLdapResult().getResultCode());
        assertEquals(
                "filter has more than 3 elements (listen.max-filter-elements)",
                reply.response().getLdapResult().getDiagnosticMessage());
        assertFalse(ch.finishAndReleaseAll());
    }

    @Test
    void filterTenThousandDeepNeverReachesTheRecursiveDecoder() {
        byte[] pdu = Fixtures.searchWithFilterDepth(9, 10_000);
        assertInstanceOf(InboundError.Reply.class, decodeWhole(pdu));
        assertInstanceOf(InboundError.Reply.class, decodeByteByByte(pdu));
    }

    @Test
    void aFilterLengthOverrunningItsParentDisconnects() {
        InboundError.Disconnect whole =
                assertInstanceOf(InboundError.Disconnect.class, decodeWhole(Fixtures.SEARCH_FILTER_OVERRUN));
        assertEquals(ResultCodeEnum.PROTOCOL_ERROR, whole.code());
        assertInstanceOf(InboundError.Disconnect.class, decodeByteByByte(Fixtures.SEARCH_FILTER_OVERRUN));
    }

    @Test
    void aMessageIdLengthPastTheIntRangeDisconnectsWithoutAnException() {
        InboundError.Disconnect d =
                assertInstanceOf(InboundError.Disconnect.class, decodeWhole(Fixtures.SEARCH_HUGE_MESSAGE_ID));
        assertEquals(ResultCodeEnum.PROTOCOL_ERROR, d.code());
    }

    @Test
    void theDecoderCarriesOnAfterATooDeepFilter() {
        EmbeddedChannel ch = channel();
        ch.writeInbound(Unpooled.wrappedBuffer(
                Fixtures.concat(Fixtures.searchWithFilterDepth(8, MAX_DEPTH + 1), Fixtures.SEARCH)));
        assertInstanceOf(InboundError.Reply.class, ch.readInbound());
        SearchRequest search = assertInstanceOf(SearchRequest.class, ch.readInbound());
        assertEquals(2, search.getMessageId());
        assertFalse(ch.finishAndReleaseAll());
    }

    @Test
    void aTooDeepFilterUnderANegativeMessageIdDisconnects() {
        // messageID -128 cannot be answered: the PDU is refused as malformed, not replied to as id 128.
        byte[] pdu = Fixtures.searchWithFilterDepth(0x80, 10_000);
        InboundError.Disconnect d = assertInstanceOf(InboundError.Disconnect.class, decodeWhole(pdu));
        assertEquals(ResultCodeEnum.PROTOCOL_ERROR, d.code());
    }
}
