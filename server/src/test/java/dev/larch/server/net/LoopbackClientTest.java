package dev.larch.server.net;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
        assertNull(feed.next());
    }
}
