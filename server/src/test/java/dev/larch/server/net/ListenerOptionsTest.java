package dev.larch.server.net;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ListenerOptionsTest {

    @Test
    void zeroIoThreadsRunsOneEventLoopPerCore() {
        ListenerOptions options = new ListenerOptions("127.0.0.1", 0, 0, 1 << 20, 0, 100);
        assertEquals(Runtime.getRuntime().availableProcessors(), options.eventLoops());
    }

    @Test
    void configuredIoThreadsAreTheEventLoops() {
        assertEquals(3, new ListenerOptions("127.0.0.1", 0, 3, 1 << 20, 0, 100).eventLoops());
    }
}
