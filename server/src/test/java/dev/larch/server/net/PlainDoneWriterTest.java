package dev.larch.server.net;

import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;

import com.unboundid.asn1.ASN1StreamReader;
import com.unboundid.ldap.protocol.LDAPMessage;
import dev.larch.server.protocol.WireResultCode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.apache.directory.api.asn1.util.Asn1Buffer;
import org.apache.directory.api.ldap.codec.api.LdapApiService;
import org.apache.directory.api.ldap.codec.api.LdapApiServiceFactory;
import org.apache.directory.api.ldap.codec.api.LdapEncoder;
import org.apache.directory.api.ldap.model.message.Referral;
import org.apache.directory.api.ldap.model.message.ReferralImpl;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.SearchResultDone;
import org.apache.directory.api.ldap.model.message.SearchResultDoneImpl;
import org.apache.directory.api.ldap.model.message.controls.PagedResultsImpl;
import org.apache.directory.api.ldap.model.name.Dn;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A plain search done written directly is the PDU the Apache API's encoder writes for it, and a
 * standard client (UnboundID's SDK) reads back its code and message; any other done is left to
 * the API.
 */
class PlainDoneWriterTest {
    private static final LdapApiService CODEC = LdapApiServiceFactory.getSingleton();
    private final LdapMessageEncoder encoder = new LdapMessageEncoder(CODEC);

    private static SearchResultDone done(int messageId, ResultCodeEnum code, String diagnostic) {
        SearchResultDone done = new SearchResultDoneImpl(messageId);
        done.getLdapResult().setResultCode(code);
        done.getLdapResult().setDiagnosticMessage(diagnostic);
        return done;
    }

    private static byte[] api(SearchResultDone done) throws Exception {
        ByteBuffer encoded = LdapEncoder.encodeMessage(new Asn1Buffer(), CODEC, done);
        byte[] out = new byte[encoded.remaining()];
        encoded.get(out);
        return out;
    }

    private static byte[] direct(SearchResultDone done) {
        ByteBuf pdu = PlainDoneWriter.write(UnpooledByteBufAllocator.DEFAULT, done);
        try {
            return ByteBufUtil.getBytes(pdu);
        } finally {
            pdu.release();
        }
    }

    @Test
    void everyPlainDoneIsTheApiEncodersPduByteForByte() throws Exception {
        String[] diagnostics = {null, "", "size limit exceeded (limits.size-limit)", "é".repeat(200)};
        ResultCodeEnum[] codes = {
            ResultCodeEnum.SUCCESS,
            ResultCodeEnum.SIZE_LIMIT_EXCEEDED,
            ResultCodeEnum.TIME_LIMIT_EXCEEDED,
            ResultCodeEnum.NO_SUCH_OBJECT,
            ResultCodeEnum.ADMIN_LIMIT_EXCEEDED,
            ResultCodeEnum.OTHER
        };
        for (int id : new int[] {0, 1, 127, 128, 255, 256, 32767, 32768, 8388607, 8388608, Integer.MAX_VALUE}) {
            for (ResultCodeEnum code : codes) {
                for (String diagnostic : diagnostics) {
                    SearchResultDone done = done(id, code, diagnostic);
                    assertTrue(PlainDoneWriter.applies(done));
                    assertArrayEquals(api(done), direct(done), id + " " + code + " " + diagnostic);
                }
            }
        }
    }

    @Test
    void aStandardClientReadsTheCodeAndMessage() throws Exception {
        byte[] pdu = direct(done(7, ResultCodeEnum.SIZE_LIMIT_EXCEEDED, "too many"));
        LDAPMessage read = LDAPMessage.readFrom(new ASN1StreamReader(new ByteArrayInputStream(pdu)), false);
        assertEquals(7, read.getMessageID());
        assertEquals(4, read.getSearchResultDoneProtocolOp().getResultCode());
        assertEquals("too many", read.getSearchResultDoneProtocolOp().getDiagnosticMessage());
    }

    @Test
    void aDoneWithControlsAMatchedDnAReferralOrAWireCodeIsLeftToTheApi() throws Exception {
        SearchResultDone withControl = done(1, ResultCodeEnum.SUCCESS, null);
        withControl.addControl(new PagedResultsImpl());
        SearchResultDone matched = done(2, ResultCodeEnum.NO_SUCH_OBJECT, null);
        matched.getLdapResult().setMatchedDn(new Dn("dc=example,dc=com"));
        SearchResultDone referral = done(3, ResultCodeEnum.REFERRAL, null);
        Referral urls = new ReferralImpl();
        urls.addLdapUrl("ldap://elsewhere/dc=example,dc=com");
        referral.getLdapResult().setReferral(urls);
        SearchResultDone wide = done(4, ResultCodeEnum.E_SYNC_REFRESH_REQUIRED, null);
        SearchResultDone wire = done(5, WireResultCode.placeholder(WireResultCode.ASSERTION_FAILED), null);
        WireResultCode.set(wire, WireResultCode.ASSERTION_FAILED);
        for (SearchResultDone done : new SearchResultDone[] {withControl, matched, referral, wide, wire}) {
            assertFalse(PlainDoneWriter.applies(done), done.toString());
            ByteBuf pdu = encoder.encode(UnpooledByteBufAllocator.DEFAULT, done);
            pdu.release();
        }
        ByteBuf written = encoder.encode(UnpooledByteBufAllocator.DEFAULT, wire);
        try {
            LDAPMessage read = LDAPMessage.readFrom(
                    new ASN1StreamReader(new ByteArrayInputStream(ByteBufUtil.getBytes(written))), false);
            assertEquals(
                    WireResultCode.ASSERTION_FAILED,
                    read.getSearchResultDoneProtocolOp().getResultCode());
        } finally {
            written.release();
        }
    }
}
