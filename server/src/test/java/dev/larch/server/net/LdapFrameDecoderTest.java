package dev.larch.server.net;

import dev.larch.server.protocol.Session;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.apache.directory.api.ldap.model.name.Dn;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LdapFrameDecoderTest {

    private static EmbeddedChannel channel(int maxPdu) {
        return new EmbeddedChannel(new LdapFrameDecoder(maxPdu));
    }

    private static byte[] readFrame(EmbeddedChannel ch) {
        ByteBuf frame = ch.readInbound();
        try {
            return ByteBufUtil.getBytes(frame);
        } finally {
            frame.release();
        }
    }

    @Test
    void emitsOneFramePerPduWhenWhole() {
        EmbeddedChannel ch = channel(1024);
        ch.writeInbound(Unpooled.wrappedBuffer(Fixtures.concat(Fixtures.BIND, Fixtures.SEARCH)));
        assertArrayEquals(Fixtures.BIND, readFrame(ch));
        assertArrayEquals(Fixtures.SEARCH, readFrame(ch));
        assertNull(ch.readInbound());
        assertFalse(ch.finishAndReleaseAll());
    }

    @Test
    void waitsForTheWholePduWhenFedByteByByte() {
        EmbeddedChannel ch = channel(1024);
        byte[] both = Fixtures.concat(Fixtures.SEARCH, Fixtures.BIND);
        for (int i = 0; i < both.length; i++) {
            ch.writeInbound(Unpooled.wrappedBuffer(new byte[] {both[i]}));
            if (i < Fixtures.SEARCH.length - 1) {
                assertNull(ch.readInbound(), "frame emitted early at byte " + i);
            }
        }
        assertArrayEquals(Fixtures.SEARCH, readFrame(ch));
        assertArrayEquals(Fixtures.BIND, readFrame(ch));
        assertFalse(ch.finishAndReleaseAll());
    }

    @Test
    void longFormLengthsFrame() {
        byte[] big = Fixtures.searchWithFilterDepth(9, 200); // ~600 bytes: two-octet length
        EmbeddedChannel ch = channel(4096);
        ch.writeInbound(Unpooled.wrappedBuffer(big));
        assertArrayEquals(big, readFrame(ch));
        assertFalse(ch.finishAndReleaseAll());
    }

    @Test
    void refusesAnOversizedPduFromItsHeaderAlone() {
        EmbeddedChannel ch = channel(1024);
        ch.writeInbound(Unpooled.wrappedBuffer(Fixtures.HUGE_HEADER));
        InboundError.Disconnect d = assertInstanceOf(InboundError.Disconnect.class, ch.readInbound());
        assertTrue(d.reason().contains("maximum size"), d.reason());
        // Everything after is discarded, never buffered.
        ch.writeInbound(Unpooled.wrappedBuffer(new byte[4096]));
        assertNull(ch.readInbound());
        assertFalse(ch.finishAndReleaseAll());
    }

    @Test
    void limitCountsTagAndLength() {
        EmbeddedChannel ch = channel(Fixtures.BIND.length - 1);
        ch.writeInbound(Unpooled.wrappedBuffer(Fixtures.BIND));
        assertInstanceOf(InboundError.Disconnect.class, ch.readInbound());
        assertFalse(ch.finishAndReleaseAll());

        EmbeddedChannel exact = channel(Fixtures.BIND.length);
        exact.writeInbound(Unpooled.wrappedBuffer(Fixtures.BIND));
        assertEquals(Fixtures.BIND.length, readFrame(exact).length);
        assertFalse(exact.finishAndReleaseAll());
    }

    @Test
    void refusesIndefiniteLength() {
        EmbeddedChannel ch = channel(1024);
        ch.writeInbound(Unpooled.wrappedBuffer(Fixtures.INDEFINITE_LENGTH));
        InboundError.Disconnect d = assertInstanceOf(InboundError.Disconnect.class, ch.readInbound());
        assertTrue(d.reason().contains("indefinite"), d.reason());
        assertFalse(ch.finishAndReleaseAll());
    }

    @Test
    void refusesAnythingButASequence() {
        for (String bad : new String[] {"04 01 41", "1f 81 00", "30 85 00 00 00 00 01"}) {
            EmbeddedChannel ch = channel(1024);
            ch.writeInbound(Unpooled.wrappedBuffer(Fixtures.hex(bad)));
            assertInstanceOf(InboundError.Disconnect.class, ch.readInbound(), bad);
            assertFalse(ch.finishAndReleaseAll());
        }
    }

    @Test
    void aTruncatedPduAtCloseLeaksNothing() {
        EmbeddedChannel ch = channel(1024);
        ch.writeInbound(Unpooled.wrappedBuffer(Fixtures.SEARCH, 0, 10));
        assertNull(ch.readInbound());
        assertFalse(ch.finishAndReleaseAll());
    }

    @Test
    void anonymousSessionsGetTheSmallerLimitUntilABindSucceeds() throws Exception {
        Session session = new Session(1, null);
        byte[] pdu = Fixtures.baseSearch(7, "", Fixtures.equality("cn", "x".repeat(200)));
        EmbeddedChannel anonymous = new EmbeddedChannel(new LdapFrameDecoder(1024, 128, session, null));
        anonymous.writeInbound(Unpooled.wrappedBuffer(pdu));
        InboundError.Disconnect refused = assertInstanceOf(InboundError.Disconnect.class, anonymous.readInbound());
        assertEquals("PDU exceeds the maximum size of 128 bytes before a successful bind", refused.reason());
        assertFalse(anonymous.finishAndReleaseAll());

        EmbeddedChannel bound = new EmbeddedChannel(new LdapFrameDecoder(1024, 128, session, null));
        session.bound(new Dn("cn=someone"), false);
        bound.writeInbound(Unpooled.wrappedBuffer(pdu));
        assertArrayEquals(pdu, readFrame(bound));
        session.bound(Dn.EMPTY_DN, false); // a bind back to anonymous
        bound.writeInbound(Unpooled.wrappedBuffer(pdu));
        assertInstanceOf(InboundError.Disconnect.class, bound.readInbound());
        assertFalse(bound.finishAndReleaseAll());
    }

    @Test
    void anAnonymousLimitAboveTheLimitIsCappedByIt() {
        Session session = new Session(1, null);
        EmbeddedChannel ch = new EmbeddedChannel(new LdapFrameDecoder(64, 4096, session, null));
        ch.writeInbound(Unpooled.wrappedBuffer(Fixtures.baseSearch(7, "", Fixtures.equality("cn", "x".repeat(100)))));
        InboundError.Disconnect refused = assertInstanceOf(InboundError.Disconnect.class, ch.readInbound());
        assertEquals("PDU exceeds the maximum size of 64 bytes", refused.reason());
        assertFalse(ch.finishAndReleaseAll());
    }

    @Test
    void aShutGateHoldsWholeFramesAndReadsNothingUntilItOpens() {
        ReadGate gate = new ReadGate();
        EmbeddedChannel ch = new EmbeddedChannel(gate, new LdapFrameDecoder(1024, 1024, null, gate));
        gate.shut();
        assertFalse(ch.config().isAutoRead());
        ch.writeInbound(Unpooled.wrappedBuffer(Fixtures.concat(Fixtures.BIND, Fixtures.SEARCH)));
        assertNull(ch.readInbound());
        gate.open();
        assertNull(ch.readInbound()); // opening takes a task of its own
        ch.runPendingTasks();
        assertArrayEquals(Fixtures.BIND, readFrame(ch));
        assertArrayEquals(Fixtures.SEARCH, readFrame(ch));
        assertTrue(ch.config().isAutoRead());
        assertFalse(ch.finishAndReleaseAll());
    }

    /** AbandonRequest { messageID 9, abandon message 2 }. */
    private static final byte[] ABANDON_2 = Fixtures.hex("30 06  02 01 09  50 01 02");

    @Test
    void aShutGateLetsAbandonAndUnbindThroughAheadOfTheHeldRequests() {
        ReadGate gate = new ReadGate();
        EmbeddedChannel ch = new EmbeddedChannel(gate, new LdapFrameDecoder(1024, 1024, null, gate));
        gate.shut();
        ch.writeInbound(
                Unpooled.wrappedBuffer(Fixtures.concat(Fixtures.BIND, ABANDON_2, Fixtures.SEARCH, Fixtures.UNBIND)));
        assertArrayEquals(ABANDON_2, readFrame(ch));
        assertArrayEquals(Fixtures.UNBIND, readFrame(ch));
        assertNull(ch.readInbound());
        assertFalse(gate.isStopped(), "two small requests are within the budget");
        gate.open();
        ch.runPendingTasks();
        assertArrayEquals(Fixtures.BIND, readFrame(ch));
        assertArrayEquals(Fixtures.SEARCH, readFrame(ch));
        assertNull(ch.readInbound());
        assertFalse(ch.finishAndReleaseAll());
    }

    @Test
    void aShutGateStopsReadingAtTheBudgetAndKeepsTheOrderWhenItOpens() {
        ReadGate gate = new ReadGate();
        EmbeddedChannel ch = new EmbeddedChannel(gate, new LdapFrameDecoder(1024, 1024, null, gate));
        gate.shut();
        int perFrame =
                Fixtures.baseSearch(1, "", Fixtures.objectClassPresent()).length + LdapFrameDecoder.HELD_FRAME_OVERHEAD;
        int fit = LdapFrameDecoder.HOLD_BUDGET_BYTES / perFrame;
        byte[][] frames = new byte[fit + 3][];
        for (int i = 0; i < frames.length; i++) {
            frames[i] = Fixtures.baseSearch(i + 1, "", Fixtures.objectClassPresent());
        }
        // Byte by byte, as a slow network would deliver them.
        for (byte b : Fixtures.concat(frames)) {
            ch.writeInbound(Unpooled.wrappedBuffer(new byte[] {b}));
        }
        assertNull(ch.readInbound());
        assertTrue(gate.isStopped(), "held past the budget");
        // An Abandon behind the budget waits with the rest; nothing is lost or reordered.
        ch.writeInbound(Unpooled.wrappedBuffer(ABANDON_2));
        assertNull(ch.readInbound());
        gate.open();
        ch.runPendingTasks();
        for (byte[] frame : frames) {
            assertArrayEquals(frame, readFrame(ch));
        }
        assertArrayEquals(ABANDON_2, readFrame(ch));
        assertFalse(gate.isStopped());
        assertFalse(ch.finishAndReleaseAll());
    }

    @Test
    void heldFramesAreReleasedWhenTheChannelCloses() {
        ReadGate gate = new ReadGate();
        EmbeddedChannel ch = new EmbeddedChannel(gate, new LdapFrameDecoder(1024, 1024, null, gate));
        gate.shut();
        ch.writeInbound(Unpooled.wrappedBuffer(Fixtures.concat(Fixtures.BIND, Fixtures.SEARCH)));
        assertFalse(ch.finishAndReleaseAll(), "nothing was emitted, and the held copies are freed (leak detector)");
    }
}
