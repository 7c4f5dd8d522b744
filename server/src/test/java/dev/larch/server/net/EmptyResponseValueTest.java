package dev.larch.server.net;

import java.nio.ByteBuffer;
import java.util.Arrays;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import org.apache.directory.api.ldap.codec.api.LdapApiService;
import org.apache.directory.api.ldap.codec.api.LdapApiServiceFactory;
import org.apache.directory.api.ldap.model.message.ExtendedResponse;
import org.apache.directory.api.ldap.model.message.OpaqueExtendedResponse;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EmptyResponseValueTest {

    @Test
    void anEmptyWhoAmIValueIsEncodedAsAPresentEmptyOctetString() {
        // LDAPMessage { messageID 1, ExtendedResponse { success, '', '' } } as the Apache encoder writes it
        byte[] withoutValue = {0x30, 0x0c, 0x02, 0x01, 0x01, 0x78, 0x07, 0x0a, 0x01, 0x00, 0x04, 0x00, 0x04, 0x00};
        byte[] expected = {
            0x30, 0x0e, 0x02, 0x01, 0x01, 0x78, 0x09, 0x0a, 0x01, 0x00, 0x04, 0x00, 0x04, 0x00, (byte) 0x8b, 0x00
        };
        assertArrayEquals(expected, EmptyResponseValue.append(ByteBuffer.wrap(withoutValue)));
    }

    @Test
    void longFormLengthsAreRewrittenWhenTheyGrow() {
        // A 126-byte diagnostic message puts the ExtendedResponse at 133 bytes: long-form lengths.
        byte[] message = new byte[126];
        Arrays.fill(message, (byte) 'x');
        byte[] op = new byte[3 + 2 + 2 + 126];
        int i = 0;
        op[i++] = 0x0a;
        op[i++] = 0x01;
        op[i++] = 0x00;
        op[i++] = 0x04;
        op[i++] = 0x00;
        op[i++] = 0x04;
        op[i++] = 126;
        System.arraycopy(message, 0, op, i, 126);
        byte[] pdu = new byte[3 + 3 + 3 + op.length];
        int p = 0;
        pdu[p++] = 0x30;
        pdu[p++] = (byte) 0x81;
        pdu[p++] = (byte) (3 + 3 + op.length);
        pdu[p++] = 0x02;
        pdu[p++] = 0x01;
        pdu[p++] = 0x05;
        pdu[p++] = 0x78;
        pdu[p++] = (byte) 0x81;
        pdu[p++] = (byte) op.length;
        System.arraycopy(op, 0, pdu, p, op.length);
        byte[] out = EmptyResponseValue.append(ByteBuffer.wrap(pdu));
        assertArrayEquals(new byte[] {0x30, (byte) 0x81, (byte) (3 + 3 + op.length + 2)}, Arrays.copyOf(out, 3));
        assertArrayEquals(new byte[] {0x78, (byte) 0x81, (byte) (op.length + 2)}, Arrays.copyOfRange(out, 6, 9));
        assertArrayEquals(Arrays.copyOfRange(pdu, 9, pdu.length), Arrays.copyOfRange(out, 9, out.length - 2));
        assertArrayEquals(new byte[] {(byte) 0x8b, 0x00}, Arrays.copyOfRange(out, out.length - 2, out.length));
        assertTrue(out.length == pdu.length + 2);
    }

    @Test
    void onlyEmptyOpaqueValuesWithoutControlsAreTouched() {
        OpaqueExtendedResponse empty = new OpaqueExtendedResponse(1);
        empty.setResponseValue(new byte[0]);
        empty.getLdapResult().setResultCode(ResultCodeEnum.SUCCESS);
        assertTrue(EmptyResponseValue.applies(empty));
        OpaqueExtendedResponse withValue = new OpaqueExtendedResponse(1);
        withValue.setResponseValue(new byte[] {'d', 'n'});
        assertFalse(EmptyResponseValue.applies(withValue));
        assertFalse(EmptyResponseValue.applies(new OpaqueExtendedResponse(1)));
    }

    @Test
    void throughTheEncoderTheValueDecodesAsPresentAndEmpty() {
        // A 300-byte diagnostic message puts both enclosing lengths in the two-octet long form.
        LdapApiService codec = LdapApiServiceFactory.getSingleton();
        EmbeddedChannel ch = new EmbeddedChannel(
                new LdapFrameDecoder(1 << 20),
                new LdapMessageDecoder(codec, 1 << 20, 10),
                new LdapMessageEncoder(codec));
        OpaqueExtendedResponse response = new OpaqueExtendedResponse(7);
        response.setResponseValue(new byte[0]);
        response.getLdapResult().setResultCode(ResultCodeEnum.SUCCESS);
        response.getLdapResult().setDiagnosticMessage("x".repeat(300));
        ch.writeOutbound(response);
        ByteBuf encoded = ch.readOutbound();
        assertEquals(0x82, encoded.getUnsignedByte(1));
        ch.writeInbound(encoded);
        ExtendedResponse decoded = assertInstanceOf(ExtendedResponse.class, ch.readInbound());
        assertEquals(7, decoded.getMessageId());
        assertEquals("x".repeat(300), decoded.getLdapResult().getDiagnosticMessage());
        assertArrayEquals(new byte[0], ((OpaqueExtendedResponse) decoded).getResponseValue());
        assertFalse(ch.finishAndReleaseAll());
    }

    @Test
    void aPduWithControlsAfterTheResponseIsRefused() {
        // The ExtendedResponse must end the message; here a controls [0] element follows it.
        byte[] withControls = Fixtures.hex("30 0e  02 01 01  78 07 0a 01 00 04 00 04 00  a0 00");
        assertThrows(IllegalStateException.class, () -> EmptyResponseValue.append(ByteBuffer.wrap(withControls)));
    }
}
