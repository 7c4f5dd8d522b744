package dev.larch.server.net;

import java.net.InetSocketAddress;
import java.net.SocketAddress;

import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConnectionLimitsTest {

    private static SocketAddress from(String ip, int port) {
        return new InetSocketAddress(ip, port);
    }

    @Test
    void totalLimitRefusesTheConnectionBeyondItAndNamesTheKey() {
        ConnectionLimits limits = new ConnectionLimits(2, 0);
        assertNull(limits.admit(from("10.0.0.1", 1)));
        assertNull(limits.admit(from("10.0.0.2", 1)));
        ConnectionLimits.Refusal refusal = limits.admit(from("10.0.0.3", 1));
        assertNotNull(refusal);
        assertTrue(refusal.message().contains("at most 2 (listen.max-connections)"), refusal.message());
        assertEquals(2, limits.open());
        assertEquals(1, limits.refused());
    }

    @Test
    void perAddressLimitCountsEachAddressOnItsOwn() {
        ConnectionLimits limits = new ConnectionLimits(0, 2);
        assertNull(limits.admit(from("10.0.0.1", 1)));
        assertNull(limits.admit(from("10.0.0.1", 2)));
        ConnectionLimits.Refusal refusal = limits.admit(from("10.0.0.1", 3));
        assertNotNull(refusal);
        assertTrue(
                refusal.message().contains("from 10.0.0.1: at most 2 per address (listen.max-connections-per-address)"),
                refusal.message());
        assertNull(limits.admit(from("10.0.0.2", 1)));
        assertEquals(3, limits.open());
        assertEquals(1, limits.refused());
    }

    @Test
    void aRefusalByAddressDoesNotUseUpTheTotal() {
        ConnectionLimits limits = new ConnectionLimits(2, 1);
        assertNull(limits.admit(from("10.0.0.1", 1)));
        for (int i = 0; i < 5; i++) {
            assertNotNull(limits.admit(from("10.0.0.1", 2 + i)));
        }
        assertNull(limits.admit(from("10.0.0.2", 1)));
        assertEquals(2, limits.open());
        assertEquals(5, limits.refused());
    }

    @Test
    void releasingAConnectionMakesRoomAgain() {
        ConnectionLimits limits = new ConnectionLimits(1, 1);
        assertNull(limits.admit(from("10.0.0.1", 1)));
        assertNotNull(limits.admit(from("10.0.0.1", 2)));
        limits.release(from("10.0.0.1", 1));
        assertEquals(0, limits.open());
        assertNull(limits.admit(from("10.0.0.1", 3)));
    }

    @Test
    void zeroMeansNoLimit() {
        ConnectionLimits limits = ConnectionLimits.unlimited();
        for (int i = 0; i < 10_000; i++) {
            assertNull(limits.admit(from("10.0.0.1", i % 65_000 + 1)));
        }
        assertEquals(10_000, limits.open());
        assertEquals(0, limits.refused());
    }

    @Test
    void addressesThatAreNotIpCountOnlyTowardsTheTotal() {
        ConnectionLimits limits = new ConnectionLimits(2, 1);
        SocketAddress embedded = new EmbeddedChannel().remoteAddress();
        assertNull(limits.admit(embedded));
        assertNull(limits.admit(embedded));
        assertNotNull(limits.admit(embedded));
        limits.release(embedded);
        assertEquals(1, limits.open());
    }
}
