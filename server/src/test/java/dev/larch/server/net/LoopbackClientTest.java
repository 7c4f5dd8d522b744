package dev.larch.server.net;

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

    private static Response classify(int... bytes) {
        byte[] head = new byte[LoopbackClient.PREFIX_BYTES];
        for (int i = 0; i < bytes.length; i++) {
            head[i] = (byte) bytes[i];
        }
        return LoopbackClient.classify(head, bytes.length);
    }
}
