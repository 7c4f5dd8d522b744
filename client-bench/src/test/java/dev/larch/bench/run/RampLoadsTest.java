package dev.larch.bench.run;

import java.util.List;

import dev.larch.bench.run.RampLoads.Load;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RampLoadsTest {
    @Test
    void linearAddsTheStepUpToTheMaximum() {
        assertEquals(List.of(new Load(2, 4), new Load(4, 4), new Load(6, 4)), RampLoads.linear(2, 2, 7, 4));
    }

    @Test
    void gridRunsEveryPairLightestFirstAndFewerClientsFirstOnATie() {
        assertEquals(
                List.of(
                        new Load(1, 2),
                        new Load(1, 4),
                        new Load(2, 2),
                        new Load(2, 4),
                        new Load(4, 2),
                        new Load(4, 4),
                        new Load(8, 2),
                        new Load(8, 4)),
                RampLoads.grid(List.of(1, 2, 4, 8), List.of(2, 4)));
    }

    @Test
    void gridDropsDuplicates() {
        assertEquals(List.of(new Load(2, 2)), RampLoads.grid(List.of(2, 2), List.of(2)));
    }
}
