package dev.larch.bench.report;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

class HistogramTagTest {
    @Test
    void everyKindSurvivesFormatAndParse() {
        for (HistogramTag t : new HistogramTag[] {
            HistogramTag.all(3, "measure"),
            HistogramTag.connect(1, "warm-up"),
            HistogramTag.operation(2, "measure", "exact-name"),
            HistogramTag.operation(2, "measure", "odd name, with; = and %")
        }) {
            assertEquals(t, HistogramTag.parse(t.format()));
        }
    }

    @Test
    void formattedTagHasNoCharacterThatEndsAnHdrTag() {
        String tag = HistogramTag.operation(1, "measure", "a b,c").format();
        assertFalse(tag.contains(" ") || tag.contains(","), tag);
        assertEquals("run=1;phase=measure;op=a+b%2Cc", tag);
    }

    @Test
    void foreignTagsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> HistogramTag.parse(null));
        assertThrows(IllegalArgumentException.class, () -> HistogramTag.parse("latency"));
        assertThrows(IllegalArgumentException.class, () -> HistogramTag.parse("run=x;phase=measure;all"));
        assertThrows(IllegalArgumentException.class, () -> HistogramTag.parse("run=1;phase=measure;other"));
    }
}
