package dev.larch.server.csn;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CsnTest {

    private static final String SAMPLE = "20261128152607.123456Z#000000#001#000000";

    @Test
    void aSlapdCsnParsesIntoItsFieldsAndFormatsBackUnchanged() {
        Csn csn = Csn.parse(SAMPLE);

        assertEquals(SAMPLE, csn.toString());
        assertEquals(Instant.parse("2026-11-28T15:26:07.123456Z"), csn.instant());
        assertEquals(0, csn.count());
        assertEquals(1, csn.sid());
        assertEquals(0, csn.modifier());
    }

    @Test
    void ofWritesTheFieldsInSlapdsWidthsAndLowerCaseHex() {
        long micros = Instant.parse("2026-01-02T03:04:05Z").getEpochSecond() * 1_000_000L + 7;

        Csn csn = Csn.of(micros, 0xabc, 0xfff, 0x1f);

        assertEquals("20260102030405.000007Z#000abc#fff#00001f", csn.toString());
        assertEquals(micros, csn.epochMicros());
        assertEquals(csn, Csn.parse(csn.toString()));
    }

    @Test
    void upperCaseHexIsReadAndWrittenInLowerCase() {
        assertEquals(
                "20261128152607.123456Z#00000a#0ab#00000f",
                Csn.parse("20261128152607.123456Z#00000A#0AB#00000F").toString());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "20261128152607.123456Z#000000#001#00000|characters",
                "20261128152607Z#000000#01#000000|characters",
                "2026112815260x.123456Z#000000#001#000000|non-digit",
                "20261128152607,123456Z#000000#001#000000|'.'",
                "20261128152607.123456X#000000#001#000000|'Z'",
                "20261128152607.123456Z-000000#001#000000|'#'",
                "20261128152607.123456Z#00000g#001#000000|change count",
                "20261128152607.123456Z#000000#0g1#000000|server ID",
                "20261128152607.123456Z#000000#001#00000z|modifier",
                "20261328152607.123456Z#000000#001#000000|not a valid date",
                "20260230152607.123456Z#000000#001#000000|not a valid date",
                "20261128246007.123456Z#000000#001#000000|not a valid date",
                "09991128152607.123456Z#000000#001#000000|before 1000",
                "２0261128152607.123456Z#000000#001#000000|non-digit",
            })
    void aMalformedCsnIsRefusedWithAMessageNamingThePart(String text, String named) {
        assertRefused(named, () -> Csn.parse(text));
    }

    @Test
    void ofRefusesFieldsOutOfRange() {
        assertRefused("change count", () -> Csn.of(0, Csn.MAX_COUNT + 1, 1, 0));
        assertRefused("server ID", () -> Csn.of(0, 0, Csn.MAX_SID + 1, 0));
        assertRefused("server ID", () -> Csn.of(0, 0, -1, 0));
        assertRefused("modifier", () -> Csn.of(0, 0, 1, -1));
        assertRefused("years", () -> Csn.of(Long.MAX_VALUE / 2, 0, 1, 0));
    }

    @Test
    void csnsOrderByTimeThenCountThenServerIdAsTheirBytesDo() {
        List<Csn> ordered = List.of(
                Csn.parse("20251231235959.999999Z#ffffff#fff#ffffff"),
                Csn.parse("20261128152607.123456Z#000000#002#000000"),
                Csn.parse("20261128152607.123456Z#000001#001#000000"),
                Csn.parse("20261128152607.123456Z#000001#002#000000"),
                Csn.parse("20261128152607.123457Z#000000#000#000000"));
        List<Csn> sorted = new ArrayList<>(ordered);
        Collections.reverse(sorted);
        Collections.sort(sorted);
        assertEquals(ordered, sorted);

        for (int i = 1; i < ordered.size(); i++) {
            assertTrue(Arrays.compareUnsigned(
                            ordered.get(i - 1).toBytes(), ordered.get(i).toBytes())
                    < 0);
            assertTrue(ordered.get(i).isAfter(ordered.get(i - 1)));
        }
    }

    @Test
    void theByteFormIsFixedWidthAndReadsBack() {
        Csn csn = Csn.parse(SAMPLE);
        byte[] bytes = csn.toBytes();

        assertEquals(Csn.LENGTH, bytes.length);
        assertEquals(csn, Csn.fromBytes(bytes));
        assertThrows(IllegalArgumentException.class, () -> Csn.fromBytes(new byte[Csn.LENGTH]));
    }

    @Test
    void aLongGarbageTextIsNotEchoedWhole() {
        String garbage = "x".repeat(10_000);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Csn.parse(garbage));
        assertTrue(e.getMessage().length() < 200, e.getMessage());
    }

    static void assertRefused(String named, Executable parse) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, parse);
        assertTrue(e.getMessage().contains(named), e.getMessage());
    }
}
