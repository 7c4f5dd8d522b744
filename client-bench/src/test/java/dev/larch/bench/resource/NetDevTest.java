package dev.larch.bench.resource;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class NetDevTest {
    @Test
    void sumsReceiveAndTransmitBytesOverEveryInterfaceIncludingLoopback() {
        assertEquals(new NetDev(1500, 1300), NetDev.parse(ProcessReaderTest.NET_DEV));
    }

    @Test
    void aLineWithoutByteColumnsIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> NetDev.parse("  eth0: 1 2 3\n"));
    }
}
