package dev.larch.server.csn;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;

import static dev.larch.server.csn.CsnTest.assertRefused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CsnVectorTest {

    private static final Csn A1 = Csn.parse("20261128152607.123456Z#000000#001#000000");
    private static final Csn A1_LATER = Csn.parse("20261128152608.000000Z#000000#001#000000");
    private static final Csn B2 = Csn.parse("20261128152600.000000Z#000003#002#000000");
    private static final Csn C0 = Csn.parse("20261128152500.000000Z#000000#000#000000");

    @Test
    void aVectorKeepsTheHighestCsnOfEachServerIdInServerIdOrder() {
        CsnVector vector = CsnVector.of(B2, A1_LATER, A1, C0);

        assertEquals(List.of(C0, A1_LATER, B2), vector.csns());
        assertEquals(A1_LATER, vector.get(1));
        assertNull(vector.get(3));
        assertEquals(A1_LATER, vector.max());
    }

    @Test
    void parseAndFormatRoundTripSlapdsSemicolonList() {
        CsnVector parsed = CsnVector.parse(B2 + ";" + A1 + ";" + C0);

        assertEquals(C0 + ";" + A1 + ";" + B2, parsed.format());
        assertEquals(parsed, CsnVector.parse(parsed.format()));
        assertEquals(CsnVector.EMPTY, CsnVector.parse(""));
    }

    @Test
    void aBadValueInTheListIsRefused() {
        assertRefused("not a CSN", () -> CsnVector.parse(A1 + ";"));
        assertRefused("not a CSN", () -> CsnVector.parse(A1 + ";;" + B2));
        assertRefused("not a CSN", () -> CsnVector.parse(A1 + ",x"));
    }

    @Test
    void moreValuesThanServerIdsAreRefusedBeforeBeingRead() {
        String tooMany = String.join(";", Collections.nCopies(CsnVector.MAX_SIZE + 1, "x"));

        assertRefused("at most " + CsnVector.MAX_SIZE, () -> CsnVector.parse(tooMany));
    }

    @Test
    void everyServerIdFits() {
        List<Csn> all = new ArrayList<>();
        for (int sid = 0; sid <= Csn.MAX_SID; sid++) {
            all.add(Csn.of(1_800_000_000_000_000L, 0, sid, 0));
        }

        CsnVector vector = CsnVector.parse(CsnVector.of(all).format());

        assertEquals(CsnVector.MAX_SIZE, vector.size());
    }

    @Test
    void mergeTakesTheHigherOfEachServerId() {
        CsnVector merged = CsnVector.of(A1, B2).merge(CsnVector.of(A1_LATER, C0));

        assertEquals(CsnVector.of(C0, A1_LATER, B2), merged);
        assertEquals(CsnVector.of(A1_LATER), CsnVector.of(A1_LATER).with(A1));
        assertEquals(CsnVector.of(A1_LATER, B2), CsnVector.of(A1).with(B2).with(A1_LATER));
    }

    @Test
    void aCookieIsCoveredByTheContextOnlyWhenNoneOfItsCsnsIsNewerOrUnknown() {
        CsnVector context = CsnVector.of(A1_LATER, B2);

        assertTrue(CsnVector.of(A1).isCoveredBy(context));
        assertTrue(CsnVector.of(A1_LATER, B2).isCoveredBy(context));
        assertTrue(CsnVector.EMPTY.isCoveredBy(context));
        assertFalse(CsnVector.of(A1_LATER).isCoveredBy(CsnVector.of(A1)), "a cookie from the future");
        assertFalse(CsnVector.of(C0).isCoveredBy(context), "a server the context does not know");
    }

    @Test
    void aStateIsBehindWhenTheOtherHasSomethingNewer() {
        CsnVector context = CsnVector.of(A1_LATER, B2);

        assertTrue(CsnVector.of(A1, B2).isBehind(context));
        assertTrue(CsnVector.of(A1_LATER).isBehind(context), "lacks server 2");
        assertFalse(context.isBehind(context));
        assertFalse(CsnVector.of(A1_LATER, B2, C0).isBehind(context));
    }
}
