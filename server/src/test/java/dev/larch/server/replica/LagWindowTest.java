package dev.larch.server.replica;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class LagWindowTest {
    @Test
    void percentilesAreTakenOverTheLastLagsOnlyWithMemoryFixed() {
        LagWindow window = new LagWindow(100);
        assertEquals(-1, window.quantile(0.5), "none yet");
        for (int i = 1; i <= 100; i++) {
            window.add(1_000_000L); // old lags of 1 s, pushed out below
        }
        for (int i = 1; i <= 100; i++) {
            window.add(i);
        }
        assertEquals(50, window.quantile(0.50));
        assertEquals(99, window.quantile(0.99));
        assertEquals(100, window.quantile(1.0));
        assertEquals(1, window.quantile(0.0));
    }
}
