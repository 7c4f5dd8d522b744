package dev.larch.server.auth.policy;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class CharacterClassesTest {
    @Test
    void countsLowerUpperDigitAndOther() {
        assertEquals(0, CharacterClasses.count(""));
        assertEquals(1, CharacterClasses.count("lowercase"));
        assertEquals(2, CharacterClasses.count("lowerUPPER"));
        assertEquals(3, CharacterClasses.count("lowerUPPER42"));
        assertEquals(4, CharacterClasses.count("lowerUPPER42!"));
        assertEquals(1, CharacterClasses.count("!!  ##"));
    }

    @Test
    void classesFollowUnicodeNotAscii() {
        assertEquals(2, CharacterClasses.count("éÉ"));
        assertEquals(1, CharacterClasses.count("٣٤"), "Arabic-Indic digits");
        assertEquals(1, CharacterClasses.count("漢字"), "letters without case count as other");
        assertEquals(2, CharacterClasses.count("a\uD83D\uDE00"), "a supplementary code point is one character");
    }
}
