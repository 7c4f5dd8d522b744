package dev.larch.server.net.proxy;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.larch.config.IpNetwork;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The PROXY header handlers on an embedded balancer connection: whole, split, joined, bad, late. */
class ProxyProtocolTest {
    static final ProxyProtocol PROXY = new ProxyProtocol(List.of(IpNetwork.parse("192.0.2.0/24")));
    /** An anonymous unbind, standing in for the LDAP bytes after the header. */
    static final byte[] LDAP = {0x30, 0x05, 0x02, 0x01, 0x05, 0x42, 0x00};

    @Test
    void onlyPeersInsideTheNetworksMustSendAHeader() throws Exception {
        ProxyProtocol both =
                new ProxyProtocol(List.of(IpNetwork.parse("10.0.0.0/8"), IpNetwork.parse("2001:db8::/32")));
        assertTrue(both.expectsHeaderFrom(new InetSocketAddress("10.1.2.3", 1)));
        assertTrue(both.expectsHeaderFrom(new InetSocketAddress("2001:db8::5", 1)));
        assertFalse(both.expectsHeaderFrom(new InetSocketAddress("11.0.0.1", 1)));
        assertFalse(both.expectsHeaderFrom(new InetSocketAddress("2001:db9::5", 1)));
        assertFalse(both.expectsHeaderFrom(new SocketAddress() {}));
        assertFalse(both.expectsHeaderFrom(null));
        assertFalse(ProxyProtocol.OFF.expectsHeaderFrom(new InetSocketAddress("10.1.2.3", 1)));
    }

    @Test
    void aV2HeaderNamesTheClientAndTheBytesAfterItGoOnUntouched() {
        ProxyChannel c = new ProxyChannel(PROXY);
        c.read(ProxyHeaders.concat(ProxyHeaders.v2("203.0.113.7", 40_001), LDAP));
        assertEquals(new InetSocketAddress("203.0.113.7", 40_001), c.client);
        assertTrue(c.activeBehind);
        assertArrayEquals(LDAP, c.behind.toByteArray());
        // The header's handlers are gone: only the stand-in for the LDAP pipeline is left.
        assertEquals(
                List.of("ProxyChannel$Behind#0", "DefaultChannelPipeline$TailContext#0"),
                c.channel.pipeline().names());
        assertTrue(c.isOpen());
        assertFalse(c.leaked());
    }

    @Test
    void aHeaderArrivingByteByByteIsReassembled() {
        for (byte[] header : List.of(ProxyHeaders.v2("2001:db8::7", 40_002), ProxyHeaders.v1("203.0.113.7", 40_002))) {
            ProxyChannel c = new ProxyChannel(PROXY);
            byte[] all = ProxyHeaders.concat(header, LDAP);
            for (byte b : all) {
                c.read(new byte[] {b});
            }
            assertEquals(1, c.continuations);
            assertEquals(40_002, ((InetSocketAddress) c.client).getPort());
            assertArrayEquals(LDAP, c.behind.toByteArray());
            assertFalse(c.leaked());
        }
    }

    @Test
    void aLocalHeaderKeepsTheBalancersAddress() {
        ProxyChannel c = new ProxyChannel(PROXY);
        c.read(ProxyHeaders.concat(ProxyHeaders.v2Local(), LDAP));
        assertEquals(ProxyChannel.PEER, c.client);
        assertArrayEquals(LDAP, c.behind.toByteArray());
        assertFalse(c.leaked());
    }

    @Test
    void anUnknownV1HeaderKeepsTheBalancersAddress() {
        ProxyChannel c = new ProxyChannel(PROXY);
        c.read("PROXY UNKNOWN\r\n".getBytes(StandardCharsets.US_ASCII));
        assertEquals(ProxyChannel.PEER, c.client);
        assertFalse(c.leaked());
    }

    @Test
    void tlvsWithinTheLimitAreReadAndReleased() {
        ProxyChannel c = new ProxyChannel(PROXY);
        byte[] tlvs = ProxyHeaders.concat(
                ProxyHeaders.tlv(0x01, "ldap".getBytes(StandardCharsets.US_ASCII)),
                ProxyHeaders.tlv(0xEA, new byte[ProxyProtocol.MAX_TLV_BYTES - 11]));
        c.read(ProxyHeaders.v2("203.0.113.7", 1, tlvs));
        assertEquals(new InetSocketAddress("203.0.113.7", 1), c.client);
        assertFalse(c.leaked());
    }

    @Test
    void ldapWithoutAHeaderClosesAtItsFirstByte() {
        ProxyChannel c = new ProxyChannel(PROXY);
        c.read(new byte[] {0x30});
        assertFalse(c.isOpen());
        assertNull(c.client);
        assertFalse(c.activeBehind);
        assertFalse(c.leaked());
    }

    @Test
    void aHeaderOverItsSizeClosesTheConnection() {
        ProxyChannel c = new ProxyChannel(PROXY);
        c.read(ProxyHeaders.v2("203.0.113.7", 1, ProxyHeaders.tlv(0xE0, new byte[ProxyProtocol.MAX_TLV_BYTES + 232])));
        assertFalse(c.isOpen());
        assertNull(c.client);
        assertFalse(c.leaked());
        // A v1 line without its end within 107 bytes.
        ProxyChannel v1 = new ProxyChannel(PROXY);
        v1.read(("PROXY TCP4 " + "1".repeat(200)).getBytes(StandardCharsets.US_ASCII));
        assertFalse(v1.isOpen());
        assertFalse(v1.leaked());
    }

    @Test
    void aUdpSourceCannotDescribeAnLdapConnection() {
        ProxyChannel c = new ProxyChannel(PROXY);
        byte[] udp = ProxyHeaders.v2("203.0.113.7", 1);
        udp[13] = 0x12; // UDP over IPv4
        c.read(udp);
        assertFalse(c.isOpen());
        assertNull(c.client);
        assertFalse(c.leaked());
    }

    @Test
    void aHeaderThatNeverCompletesIsClosedAfterTheTimeout() {
        ProxyChannel c = new ProxyChannel(PROXY);
        c.read(ProxyHeaders.v2("203.0.113.7", 1), 20);
        byte[] cut = Arrays.copyOf(ProxyHeaders.v2("203.0.113.7", 1), 20);
        ProxyChannel late = new ProxyChannel(PROXY);
        late.read(cut);
        late.channel.advanceTimeBy(ProxyProtocol.HEADER_TIMEOUT_MILLIS - 1, TimeUnit.MILLISECONDS);
        late.channel.runScheduledPendingTasks();
        assertTrue(late.isOpen());
        late.channel.advanceTimeBy(1, TimeUnit.MILLISECONDS);
        late.channel.runScheduledPendingTasks();
        assertFalse(late.isOpen());
        assertNull(late.client);
        assertFalse(late.leaked());
        // A complete header stops the clock.
        assertEquals(new InetSocketAddress("203.0.113.7", 1), c.client);
        c.channel.advanceTimeBy(1, TimeUnit.HOURS);
        c.channel.runScheduledPendingTasks();
        assertTrue(c.isOpen());
        assertFalse(c.leaked());
    }

    @Test
    void aHealthCheckThatConnectsAndClosesIsNoFailure() {
        Logger log = (Logger) LoggerFactory.getLogger(ProxyHeaderHandler.class);
        ListAppender<ILoggingEvent> warnings = new ListAppender<>();
        warnings.start();
        log.addAppender(warnings);
        try {
            ProxyChannel c = new ProxyChannel(PROXY);
            c.channel.close();
            c.channel.advanceTimeBy(1, TimeUnit.HOURS);
            c.channel.runScheduledPendingTasks();
            assertNull(c.client);
            assertFalse(c.leaked());
            assertEquals(List.of(), warnings.list);
        } finally {
            log.detachAppender(warnings);
        }
    }
}
