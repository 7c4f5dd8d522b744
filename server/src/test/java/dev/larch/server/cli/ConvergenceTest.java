package dev.larch.server.cli;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConvergenceTest {
    private static final String SID1 = "20261128200000.000000Z#000000#001#000000";
    private static final String SID1_LATER = "20261128200012.500000Z#000003#001#000000";
    private static final String SID2 = "20261128200100.000000Z#000000#002#000000";

    @Test
    void equalContextCsnsPerServerIdHaveConvergedWhateverTheirOrder() {
        assertTrue(Convergence.of(List.of(SID1, SID2), List.of(SID2, SID1)).converged());
        assertTrue(Convergence.of(List.of(), List.of()).converged());
    }

    @Test
    void aServerIdBehindIsNamedWithTheSecondsOfCsnTimeBetween() {
        Convergence c = Convergence.of(List.of(SID1, SID2), List.of(SID1_LATER, SID2));
        assertFalse(c.converged());
        assertEquals(1, c.differences().size(), c.differences().toString());
        assertTrue(
                c.differences().get(0).startsWith("server ID 001: this server is 12.500 s"),
                c.differences().get(0));

        String ahead =
                Convergence.of(List.of(SID1_LATER), List.of(SID1)).differences().get(0);
        assertTrue(ahead.startsWith("server ID 001: the provider is 12.500 s"), ahead);
    }

    @Test
    void aServerIdOnlyOneSideKnowsIsNamedWithItsSide() {
        assertEquals(
                List.of("server ID 002: only the provider has its changes (up to " + SID2 + ")"),
                Convergence.of(List.of(SID1), List.of(SID1, SID2)).differences());
        assertEquals(
                List.of("server ID 002: only this server has its changes (up to " + SID2 + ")"),
                Convergence.of(List.of(SID1, SID2), List.of(SID1)).differences());
    }

    @Test
    void aValueThatIsNoCsnIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> Convergence.of(List.of("garbage"), List.of()));
    }
}
