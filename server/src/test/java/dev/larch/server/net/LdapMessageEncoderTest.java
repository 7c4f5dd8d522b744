package dev.larch.server.net;

import dev.larch.server.protocol.WireResultCode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.apache.directory.api.ldap.codec.api.LdapApiServiceFactory;
import org.apache.directory.api.ldap.model.message.ModifyResponse;
import org.apache.directory.api.ldap.model.message.ModifyResponseImpl;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

class LdapMessageEncoderTest {

    private static byte[] encode(int wireCode) throws Exception {
        ModifyResponse response = new ModifyResponseImpl(5);
        response.getLdapResult().setResultCode(WireResultCode.placeholder(wireCode));
        WireResultCode.set(response, wireCode);
        ByteBuf pdu = new LdapMessageEncoder(LdapApiServiceFactory.getSingleton())
                .encode(UnpooledByteBufAllocator.DEFAULT, response);
        try {
            return ByteBufUtil.getBytes(pdu);
        } finally {
            pdu.release();
        }
    }

    @Test
    void aOneOctetCodeIsWrittenOverOther() throws Exception {
        // LDAPMessage { messageID 5, ModifyResponse { resultCode 122 (was other, 80), '', '' } }
        byte[] expected = {0x30, 0x0c, 0x02, 0x01, 0x05, 0x67, 0x07, 0x0a, 0x01, 122, 0x04, 0x00, 0x04, 0x00};
        assertArrayEquals(expected, encode(WireResultCode.ASSERTION_FAILED));
    }

    @Test
    void aTwoOctetCodeIsWrittenOverTheTwoOctetPlaceholder() throws Exception {
        // LDAPMessage { messageID 5, ModifyResponse { resultCode 16654 (was 4096: 0A 02 10 00), '', '' } }
        byte[] expected = {0x30, 0x0d, 0x02, 0x01, 0x05, 0x67, 0x08, 0x0a, 0x02, 0x41, 0x0e, 0x04, 0x00, 0x04, 0x00};
        assertArrayEquals(expected, encode(WireResultCode.NO_OPERATION));
    }

    @Test
    void aCodeOfTheWrongSizeLeavesThePlaceholder() throws Exception {
        ModifyResponse response = new ModifyResponseImpl(5);
        response.getLdapResult().setResultCode(WireResultCode.placeholder(WireResultCode.ASSERTION_FAILED));
        WireResultCode.set(response, WireResultCode.NO_OPERATION); // a two-octet code over a one-octet enum
        ByteBuf pdu = new LdapMessageEncoder(LdapApiServiceFactory.getSingleton())
                .encode(UnpooledByteBufAllocator.DEFAULT, response);
        try {
            byte[] expected = {0x30, 0x0c, 0x02, 0x01, 0x05, 0x67, 0x07, 0x0a, 0x01, 80, 0x04, 0x00, 0x04, 0x00};
            assertArrayEquals(expected, ByteBufUtil.getBytes(pdu));
        } finally {
            pdu.release();
        }
    }
}
