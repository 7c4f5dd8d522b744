package dev.larch.server.sync;

import dev.larch.server.csn.Csn;
import dev.larch.server.csn.CsnVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SyncCookieTest {

    private static final String CSN1 = "20261128152607.123456Z#000000#001#000000";
    private static final String CSN2 = "20261128152610.000001Z#000002#002#000000";
    private static final String CSN_ABC = "20261128152500.000000Z#000000#abc#000000";

    @Test
    void aConsumersFirstCookieIsItsRidAlone() {
        SyncCookie cookie = SyncCookie.parse("rid=001");

        assertEquals(1, cookie.rid());
        assertFalse(cookie.hasSid());
        assertTrue(cookie.csns().isEmpty());
        assertEquals("rid=001", cookie.format());
    }

    @Test
    void aCookieWithSidAndOneCsnReadsAsSlapdWritesIt() {
        SyncCookie cookie = SyncCookie.parse("rid=123,sid=00a,csn=" + CSN1);

        assertEquals(123, cookie.rid());
        assertEquals(10, cookie.sid());
        assertEquals(CsnVector.of(Csn.parse(CSN1)), cookie.csns());
        assertEquals("rid=123,sid=00a,csn=" + CSN1, cookie.format());
    }

    @Test
    void aMultiProviderCookieKeepsEveryServersCsnInServerIdOrder() {
        SyncCookie cookie = SyncCookie.parse("rid=002,sid=003,csn=" + CSN_ABC + ";" + CSN2 + ";" + CSN1);

        assertEquals(3, cookie.csns().size());
        assertEquals("rid=002,sid=003,csn=" + CSN1 + ";" + CSN2 + ";" + CSN_ABC, cookie.format());
        assertEquals(cookie, SyncCookie.parse(cookie.format()));
    }

    @Test
    void theSidNamesTheSenderSoCsnsOfOtherServersAreNormal() {
        // slapd's consumer sends its own serverID with the provider's contextCSN (syncrepl.c, ITS#6367).
        SyncCookie cookie = SyncCookie.parse("rid=001,sid=002,csn=" + CSN1);

        assertEquals(2, cookie.sid());
        assertEquals(1, cookie.csns().get(1).sid());
    }

    @Test
    void aCookieWithoutSidButWithCsnsIsRead() {
        SyncCookie cookie = SyncCookie.parse("rid=000,csn=" + CSN1);

        assertEquals(0, cookie.rid());
        assertFalse(cookie.hasSid());
        assertEquals("rid=000,csn=" + CSN1, cookie.format());
    }

    @Test
    void slapdsLeniencyIsKept_keysInAnyOrderAndOtherDigitWidths() {
        SyncCookie cookie = SyncCookie.parse("csn=" + CSN1 + ",sid=FFF,rid=7");

        assertEquals(7, cookie.rid());
        assertEquals(4095, cookie.sid());
        assertEquals("rid=007,sid=fff,csn=" + CSN1, cookie.format());
    }

    @Test
    void aDelcsnIsReadAndIgnored() {
        SyncCookie cookie = SyncCookie.parse("rid=001,csn=" + CSN1 + ",delcsn=" + CSN2);

        assertEquals(CsnVector.of(Csn.parse(CSN1)), cookie.csns());
    }

    @Test
    void theReplyEchoesTheConsumersRidWithOurSidAndState() {
        SyncCookie theirs = SyncCookie.parse("rid=042,sid=005,csn=" + CSN1);
        CsnVector ours = CsnVector.of(Csn.parse(CSN2), Csn.parse(CSN1));

        SyncCookie reply = theirs.reply(2, ours);

        assertEquals("rid=042,sid=002,csn=" + CSN1 + ";" + CSN2, reply.format());
        assertEquals(reply.format(), new String(reply.toBytes(), US_ASCII));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "''|empty",
                "rid=|rid must be 1-8 digits",
                "rid|not key=value",
                "rid=1000|at most 999",
                "rid=-1|not a decimal number",
                "rid=0x1|not a decimal number",
                "rid=001,sid=1000|at most 4095",
                "rid=001,sid=xyz|not a hex number",
                "rid=001,sid=|sid must be 1-8 digits",
                "sid=001|no rid",
                "csn=" + CSN1 + "|no rid",
                "rid=001,rid=002|rid twice",
                "rid=001,csn=|holds no CSN",
                "rid=001,csn=2026|not a CSN",
                "rid=001,csn=" + CSN1 + ";|not a CSN",
                "rid=001,csn=20261128152607.123456Z#000000#1000#000000|not a CSN",
                "rid=001,foo=bar|unknown key \"foo\"",
                "rid=001,|not key=value",
                "rid=001,,sid=001|not key=value",
                "'rid=001 '|not a decimal number",
            })
    void aMalformedCookieIsRefusedWithAMessageSayingWhatIsWrong(String cookie, String why) {
        MalformedCookieException e = assertThrows(MalformedCookieException.class, () -> SyncCookie.parse(cookie));
        assertTrue(e.getMessage().contains(why), e.getMessage());
    }

    @Test
    void aCookieLongerThanTheBoundIsRefusedBeforeBeingRead() {
        byte[] huge = ("rid=001,csn=" + (CSN1 + ";").repeat(300)).getBytes(US_ASCII);

        MalformedCookieException e = assertThrows(MalformedCookieException.class, () -> SyncCookie.parse(huge));
        assertTrue(e.getMessage().contains("more than " + SyncCookie.MAX_BYTES), e.getMessage());
    }

    @Test
    void aCookieThatIsNotAsciiIsRefused() {
        byte[] latin = "rid=001,csn=é".getBytes(ISO_8859_1);

        MalformedCookieException e = assertThrows(MalformedCookieException.class, () -> SyncCookie.parse(latin));
        assertTrue(e.getMessage().contains("not ASCII"), e.getMessage());
    }

    @Test
    void theMessageShowsNoControlCharactersAndNoMoreThanAShortPrefix() {
        String nasty = "rid=001,x\r\n" + "y".repeat(5000) + "=1";

        MalformedCookieException e = assertThrows(MalformedCookieException.class, () -> SyncCookie.parse(nasty));
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        assertTrue(e.getMessage().length() < 400, e.getMessage());
    }

    @Test
    void aCookieCannotBeBuiltWithFieldsOutOfRange() {
        assertThrows(IllegalArgumentException.class, () -> new SyncCookie(1000, SyncCookie.NO_SID, CsnVector.EMPTY));
        assertThrows(IllegalArgumentException.class, () -> new SyncCookie(1, 4096, CsnVector.EMPTY));
        assertThrows(IllegalArgumentException.class, () -> new SyncCookie(1, 1, null));
    }
}
