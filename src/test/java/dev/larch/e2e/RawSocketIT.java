package dev.larch.e2e;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import com.unboundid.asn1.ASN1StreamReader;
import com.unboundid.ldap.protocol.ExtendedResponseProtocolOp;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bytes no LDAP client would send, through plain sockets to the shared server: the offending
 * connection gets a Notice of Disconnection (RFC 4511 section 4.4.1) and is closed, quickly, while
 * the server keeps serving every other connection, old and new.
 */
@ExtendWith(SharedServer.class)
class RawSocketIT {
    static final String NOTICE_OF_DISCONNECTION = "1.3.6.1.4.1.1466.20036";
    static final HexFormat HEX = HexFormat.ofDelimiter(" ");
    static final int READ_TIMEOUT_MS = 15_000;

    /** An anonymous simple bind: SEQUENCE { messageID 1, [APPLICATION 0] { version 3, name "", [0] "" } }. */
    static final byte[] ANONYMOUS_BIND = HEX.parseHex("30 0c 02 01 01 60 07 02 01 03 04 00 80 00");

    static int port;

    @BeforeAll
    static void findTheServer(SharedServer.Server server) {
        port = server.port();
    }

    /** Sends {@code bytes}, then reads until the server closes the connection; fails if it does not. */
    private static byte[] sendAndReadUntilClosed(byte[] bytes, boolean halfClose) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(READ_TIMEOUT_MS);
            socket.getOutputStream().write(bytes);
            socket.getOutputStream().flush();
            if (halfClose) {
                socket.shutdownOutput();
            }
            ByteArrayOutputStream received = new ByteArrayOutputStream();
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[4096];
            try {
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    received.write(buffer, 0, n);
                }
            } catch (SocketTimeoutException e) {
                throw new AssertionError(
                        "the server kept the connection open for " + READ_TIMEOUT_MS + " ms; received so far: "
                                + HEX.formatHex(received.toByteArray()),
                        e);
            }
            return received.toByteArray();
        }
    }

    /** Decodes the responses in {@code bytes} with UnboundID's codec (independent of the server's). */
    private static List<LDAPMessage> decode(byte[] bytes) throws LDAPException {
        List<LDAPMessage> messages = new ArrayList<>();
        ASN1StreamReader reader = new ASN1StreamReader(new ByteArrayInputStream(bytes));
        for (LDAPMessage m = LDAPMessage.readFrom(reader, true); m != null; m = LDAPMessage.readFrom(reader, true)) {
            messages.add(m);
        }
        return messages;
    }

    private static void assertNoticeOfDisconnection(LDAPMessage message) {
        assertEquals(0, message.getMessageID(), message.toString());
        ExtendedResponseProtocolOp notice = message.getExtendedResponseProtocolOp();
        assertEquals(NOTICE_OF_DISCONNECTION, notice.getResponseOID(), message.toString());
        assertEquals(ResultCode.PROTOCOL_ERROR_INT_VALUE, notice.getResultCode(), message.toString());
    }

    /** A brand-new connection binds and reads the root DSE. */
    private static void assertTheServerStillServes() throws LDAPException {
        try (LDAPConnection c = new LDAPConnection("127.0.0.1", port)) {
            c.bind("", "");
            assertEquals(List.of(TestData.SUFFIX), List.of(c.getRootDSE().getNamingContextDNs()));
        }
    }

    @Test
    void garbageGetsANoticeOfDisconnectionAndACloseWhileOtherConnectionsKeepWorking() throws Exception {
        try (LDAPConnection before = new LDAPConnection("127.0.0.1", port)) {
            before.bind("", "");
            byte[] reply = sendAndReadUntilClosed(
                    "GET / HTTP/1.1\r\nHost: larch\r\n\r\n".getBytes(StandardCharsets.US_ASCII), false);
            List<LDAPMessage> messages = decode(reply);
            assertEquals(1, messages.size(), HEX.formatHex(reply));
            assertNoticeOfDisconnection(messages.get(0));

            assertEquals(TestData.SUFFIX, before.getEntry(TestData.SUFFIX).getDN(), "an older connection still works");
        }
        assertTheServerStillServes();
    }

    @Test
    void aPduClaimingMoreThanTheMaximumSizeIsRefusedBeforeItsBodyArrives() throws Exception {
        // SEQUENCE with a four-byte length of 0x7fffffff, then the start of a messageID; no body follows.
        byte[] reply = sendAndReadUntilClosed(HEX.parseHex("30 84 7f ff ff ff 02 01 01"), false);
        List<LDAPMessage> messages = decode(reply);
        assertEquals(1, messages.size(), HEX.formatHex(reply));
        assertNoticeOfDisconnection(messages.get(0));
        assertTheServerStillServes();
    }

    @Test
    void aWellFramedPduWithAnUnknownOperationInsideIsRefused() throws Exception {
        // SEQUENCE { messageID 1, [25] (0x99, context-specific primitive: no LDAP operation) empty }
        byte[] reply = sendAndReadUntilClosed(HEX.parseHex("30 05 02 01 01 99 00"), false);
        List<LDAPMessage> messages = decode(reply);
        assertEquals(1, messages.size(), HEX.formatHex(reply));
        assertNoticeOfDisconnection(messages.get(0));
        assertTheServerStillServes();
    }

    @Test
    void aRequestBeforeTheGarbageIsAnsweredFirst() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes(ANONYMOUS_BIND);
        bytes.writeBytes(HEX.parseHex("ff ff ff ff"));
        byte[] reply = sendAndReadUntilClosed(bytes.toByteArray(), false);
        List<LDAPMessage> messages = decode(reply);
        assertEquals(2, messages.size(), HEX.formatHex(reply));
        assertEquals(1, messages.get(0).getMessageID());
        assertEquals(
                ResultCode.SUCCESS_INT_VALUE,
                messages.get(0).getBindResponseProtocolOp().getResultCode());
        assertNoticeOfDisconnection(messages.get(1));
        assertTheServerStillServes();
    }

    @Test
    void aTruncatedPduFollowedByEndOfInputClosesOnlyThatConnection() throws Exception {
        // The first 6 bytes of ANONYMOUS_BIND, then the client stops sending.
        byte[] reply = sendAndReadUntilClosed(HEX.parseHex("30 0c 02 01 01 60"), true);
        assertTrue(
                reply.length == 0 || decode(reply).stream().allMatch(m -> m.getMessageID() == 0), HEX.formatHex(reply));
        assertTheServerStillServes();
    }
}
