package dev.larch.server.accesslog;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The text lines' quoted values: a client's bytes cannot end a value or start a line of their own. */
class AccessLogQuoteTest {
    private static String quoted(String value) {
        StringBuilder line = new StringBuilder("x=");
        AccessLog.quote(line, value);
        return line.toString();
    }

    @Test
    void cleanValuesAreCopiedAsTheyAre() {
        assertEquals("x=\"uid=jdoe,ou=People,dc=example,dc=com\"", quoted("uid=jdoe,ou=People,dc=example,dc=com"));
        assertEquals("x=\"Émile 東京\"", quoted("Émile 東京"));
        assertEquals("x=\"\"", quoted(""));
        assertEquals("x=\"\"", quoted(null));
    }

    @Test
    void quotesBackslashesAndControlCharactersAreEscapedWhereverTheyStand() {
        assertEquals("x=\"\\\"a\"", quoted("\"a"));
        assertEquals("x=\"a\\\\b\"", quoted("a\\b"));
        assertEquals("x=\"a\\x0a conn=1 op=1 BIND\"", quoted("a\n conn=1 op=1 BIND"));
        assertEquals("x=\"end\\x0d\\x00\\x7f\"", quoted("end\r\0\u007f"));
        assertEquals("x=\"\\x1bq\\\"\"", quoted("\u001bq\""));
    }

    @Test
    void longValuesAreCutAndSaySo() {
        String cut = quoted("a".repeat(AccessLog.MAX_VALUE_CHARS - 1) + "\"" + "b".repeat(10));
        assertEquals("x=\"" + "a".repeat(AccessLog.MAX_VALUE_CHARS - 1) + "\\\"...\"", cut);
        assertEquals(
                "x=\"" + "c".repeat(AccessLog.MAX_VALUE_CHARS) + "\"", quoted("c".repeat(AccessLog.MAX_VALUE_CHARS)));
    }
}
