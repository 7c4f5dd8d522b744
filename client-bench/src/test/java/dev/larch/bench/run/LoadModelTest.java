package dev.larch.bench.run;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LoadModelTest {
    @Test
    void labelsNameTheModelResultJsonRecords() {
        assertEquals("closed", LoadModel.CLOSED.label());
        assertEquals("rate", new LoadModel(500, 0, 2).label());
        assertEquals("outstanding", new LoadModel(0, 4, 2).label());
        assertEquals("rate+outstanding", new LoadModel(500, 4, 2).label());
        assertFalse(LoadModel.CLOSED.paced() || LoadModel.CLOSED.asynchronous());
        assertTrue(new LoadModel(0, 1, 1).asynchronous());
    }

    @Test
    void withRateKeepsTheRest() {
        LoadModel m = new LoadModel(0, 3, 2).withRate(250);
        assertEquals(new LoadModel(250, 3, 2), m);
        assertTrue(m.describe().contains("250.0 ops/s") && m.describe().contains("3 outstanding"), m.describe());
    }

    @Test
    void negativeValuesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new LoadModel(-1, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new LoadModel(0, -1, 1));
        assertThrows(IllegalArgumentException.class, () -> new LoadModel(0, 0, 0));
    }
}
