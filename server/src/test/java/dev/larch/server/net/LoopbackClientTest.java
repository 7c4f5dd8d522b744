package dev.larch.server.net;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

import dev.larch.server.net.LoopbackClient.Response;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LoopbackClientTest {
    /** LDAPMessage { messageID 5, protocolOp [APPLICATION 2] (an UnbindRequest, NULL) }. */
    private static final byte[] UNBIND_5 = {0x30, 0x05, 0x02, 0x01, 0x05, 0x42, 0x00};

    @Test
    void withoutEnvelopeKeepsWhatFollowsTheMessageId() {
        assertArrayEquals(new byte[] {0x42, 0x00}, LoopbackClient.withoutEnvelope(UNBIND_5));
    }

    @Test
    void withoutEnvelopeRefusesWhatIsNotOneMessage() {
        // Trailing byte, no protocolOp, not a SEQUENCE.
        assertThrows(
                IllegalArgumentException.class,
                () -> LoopbackClient.withoutEnvelope(new byte[] {0x30, 0x05, 0x02, 0x01, 0x05, 0x42, 0x00, 0x00}));
        assertThrows(
                IllegalArgumentException.class,
                () -> LoopbackClient.withoutEnvelope(new byte[] {0x30, 0x03, 0x02, 0x01, 0x05}));
        assertThrows(IllegalArgumentException.class, () -> LoopbackClient.withoutEnvelope(new byte[] {0x04, 0x00}));
    }

    @Test
    void feedHandsOutRequestsInTurnUntilTheMostToSend() {
        byte[] a = {1};
        byte[] b = {2};
        LoopbackClient.Feed feed = new LoopbackClient.Feed(List.of(a, b), 5, System.nanoTime() + 60_000_000_000L);
        List<byte[]> got = new ArrayList<>();
        for (byte[] next = feed.next(); next != null; next = feed.next()) {
            got.add(next);
        }
        assertEquals(List.of(a, b, a, b, a), got);
    }

    @Test
    void feedIsDryOnceTheTimeIsUp() {
        LoopbackClient.Feed feed = new LoopbackClient.Feed(List.of(new byte[] {1}), 1_000, System.nanoTime() - 1);
        assertTrue(feed.isDry());
        assertNull(feed.next());
    }

    @Test
    void feedIsDryOnceStopped() {
        LoopbackClient.Feed feed =
                new LoopbackClient.Feed(List.of(new byte[] {1}), 1_000, System.nanoTime() + 60_000_000_000L);
        assertFalse(feed.isDry());
        feed.stop();
        assertTrue(feed.isDry());
        assertNull(feed.next());
    }

    @Test
    void classifiesResponsesByTheirFirstBytes() {
        // messageID 5, SearchResultDone { resultCode, matchedDN "", diagnosticMessage "" }
        assertEquals(
                Response.ANSWERED, classify(0x02, 0x01, 0x05, 0x65, 0x07, 0x0a, 0x01, 0x00, 0x04, 0x00, 0x04, 0x00));
        // sizeLimitExceeded (4) and timeLimitExceeded (3) are reads answered as asked
        assertEquals(
                Response.ANSWERED, classify(0x02, 0x01, 0x05, 0x65, 0x07, 0x0a, 0x01, 0x04, 0x04, 0x00, 0x04, 0x00));
        assertEquals(
                Response.ANSWERED, classify(0x02, 0x01, 0x05, 0x65, 0x07, 0x0a, 0x01, 0x03, 0x04, 0x00, 0x04, 0x00));
        // busy (51), with a two-byte message ID and a long-form length
        assertEquals(
                Response.FAILED,
                classify(0x02, 0x02, 0x01, 0x00, 0x65, 0x81, 0x07, 0x0a, 0x01, 0x33, 0x04, 0x00, 0x04, 0x00));
        // a search result entry and a reference: more follows
        assertEquals(Response.PART, classify(0x02, 0x01, 0x05, 0x64, 0x05, 0x04, 0x00, 0x30, 0x00));
        assertEquals(Response.PART, classify(0x02, 0x01, 0x05, 0x73, 0x00));
        // message ID 0: a Notice of Disconnection
        assertEquals(Response.OVER, classify(0x02, 0x01, 0x00, 0x78, 0x07, 0x0a, 0x01, 0x34, 0x04, 0x00, 0x04, 0x00));
        // no messageID, or cut short
        assertEquals(Response.OVER, classify(0x04, 0x01, 0x05));
        assertEquals(Response.OVER, classify(0x02, 0x01));
        assertEquals(Response.FAILED, classify(0x02, 0x01, 0x05, 0x65, 0x07, 0x0a));
    }

    @Test
    void bindsAnonymouslyFirstAndUnbindsLast() throws Exception {
        byte[] search = {0x42, 0x00}; // any operation will do: the fake server below answers it
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
            LoopbackClient client = new LoopbackClient(
                    socket, new LoopbackClient.Feed(List.of(search), 1, System.nanoTime() + 60_000_000_000L), 1);
            Thread thread = Thread.ofPlatform().start(client);
            try (Socket peer = server.accept()) {
                DataInputStream in = new DataInputStream(peer.getInputStream());
                OutputStream out = peer.getOutputStream();
                // BindRequest, message ID 1: version 3, empty name, empty simple password
                assertArrayEquals(
                        new byte[] {
                            0x30, 0x0c, 0x02, 0x01, 0x01, 0x60, 0x07, 0x02, 0x01, 0x03, 0x04, 0x00, (byte) 0x80, 0x00
                        },
                        readMessage(in));
                out.write(new byte[] {0x30, 0x0c, 0x02, 0x01, 0x01, 0x61, 0x07, 0x0a, 0x01, 0x00, 0x04, 0x00, 0x04, 0x00
                });
                // The request from the feed, message ID 2
                assertArrayEquals(new byte[] {0x30, 0x05, 0x02, 0x01, 0x02, 0x42, 0x00}, readMessage(in));
                out.write(new byte[] {0x30, 0x0c, 0x02, 0x01, 0x02, 0x65, 0x07, 0x0a, 0x01, 0x00, 0x04, 0x00, 0x04, 0x00
                });
                // UnbindRequest, message ID 3
                assertArrayEquals(new byte[] {0x30, 0x05, 0x02, 0x01, 0x03, 0x42, 0x00}, readMessage(in));
            }
            thread.join(10_000);
            assertEquals(1, client.sent());
            assertEquals(1, client.answered());
            assertEquals(0, client.failed(), "the bind succeeded and the request was answered");
        }
    }

    /** One short-form LDAPMessage. */
    private static byte[] readMessage(DataInputStream in) throws IOException {
        int tag = in.readUnsignedByte();
        int length = in.readUnsignedByte();
        byte[] message = new byte[2 + length];
        message[0] = (byte) tag;
        message[1] = (byte) length;
        in.readFully(message, 2, length);
        return message;
    }

    private static Response classify(int... bytes) {
        byte[] head = new byte[LoopbackClient.PREFIX_BYTES];
        for (int i = 0; i < bytes.length; i++) {
            head[i] = (byte) bytes[i];
        }
        return LoopbackClient.classify(head, bytes.length);
    }
}
