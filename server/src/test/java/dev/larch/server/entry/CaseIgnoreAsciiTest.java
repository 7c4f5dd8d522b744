package dev.larch.server.entry;

import java.util.Arrays;
import java.util.SplittableRandom;

import dev.larch.schema.LarchSchema;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.schema.Normalizer;
import org.apache.directory.api.ldap.model.schema.SchemaManager;
import org.apache.directory.api.ldap.model.schema.normalizers.DeepTrimNormalizer;
import org.apache.directory.api.ldap.model.schema.normalizers.DeepTrimToLowerNormalizer;
import org.junit.jupiter.api.Test;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The shortcut gives the API's normalizer's answer for every ASCII value, and leaves the rest to it. */
class CaseIgnoreAsciiTest {
    private static final SchemaManager SCHEMA = LarchSchema.standard();
    private static final Normalizer API = new DeepTrimToLowerNormalizer();

    /** The API's answer, as UTF-8. */
    private static byte[] api(String value) throws LdapException {
        return API.normalize(value).getBytes(UTF_8);
    }

    private static void sameAsApi(String value) throws LdapException {
        byte[] expected = api(value);
        byte[] fromBytes = CaseIgnoreAscii.normalize(value.getBytes(UTF_8));
        byte[] fromString = CaseIgnoreAscii.normalize(value);
        if (!Arrays.equals(expected, fromBytes) || !Arrays.equals(expected, fromString)) {
            assertEquals(
                    new String(expected, UTF_8),
                    fromBytes == null ? null : new String(fromBytes, UTF_8),
                    "normalized bytes of "
                            + value.chars().mapToObj(Integer::toHexString).toList());
            assertArrayEquals(expected, fromString, "normalized string of " + value);
        }
    }

    @Test
    void everyAsciiValueOfUpToTwoCharactersNormalizesAsTheApiDoes() throws LdapException {
        sameAsApi("");
        for (char a = 0; a < 0x80; a++) {
            sameAsApi(String.valueOf(a));
            for (char b = 0; b < 0x80; b++) {
                sameAsApi(new String(new char[] {a, b}));
            }
        }
    }

    @Test
    void randomAsciiValuesWithSpacesControlsAndCapitalsNormalizeAsTheApiDoes() throws LdapException {
        // Weighted toward what the rules treat specially: spaces, the controls mapped to a space or
        // to nothing, DEL, capitals.
        String alphabet = "  \t\n\u000b\f\r\u0000\u0001\u0008\u000e\u001f\u007fAZaz09@.-_,=+\\\"#";
        SplittableRandom random = new SplittableRandom(45);
        for (int i = 0; i < 200_000; i++) {
            char[] value = new char[random.nextInt(24)];
            for (int c = 0; c < value.length; c++) {
                value[c] = random.nextInt(4) == 0
                        ? (char) random.nextInt(0x80)
                        : alphabet.charAt(random.nextInt(alphabet.length()));
            }
            sameAsApi(new String(value));
        }
    }

    @Test
    void realValuesNormalizeAsTheApiDoes() throws LdapException {
        for (String value : new String[] {
            "user.12345", "User.12345@Example.COM", "  John   Smith ", "\tAnn\r\nMarie\t", "a", " ", "   "
        }) {
            sameAsApi(value);
        }
        assertEquals(" john  smith ", new String(CaseIgnoreAscii.normalize("  John   Smith "), UTF_8));
    }

    @Test
    void aValueOutsideAsciiIsLeftToTheApi() {
        assertNull(CaseIgnoreAscii.normalize("Jérôme".getBytes(UTF_8)));
        assertNull(CaseIgnoreAscii.normalize("Jérôme"));
        assertNull(CaseIgnoreAscii.normalize("ﬁle")); // NFKC would make it "file"
    }

    @Test
    void theSchemasCaseIgnoreAttributesTakeTheShortcutAndNoOtherNormalizerDoes() throws LdapException {
        for (String attribute : new String[] {"uid", "mail", "cn", "sn", "givenName"}) {
            assertTrue(
                    CaseIgnoreAscii.handles(SCHEMA.lookupAttributeTypeRegistry(attribute)
                            .getEquality()
                            .getNormalizer()),
                    attribute);
        }
        assertFalse(CaseIgnoreAscii.handles(new DeepTrimNormalizer()));
        assertFalse(CaseIgnoreAscii.handles(new DeepTrimToLowerNormalizer() {}));
        assertFalse(CaseIgnoreAscii.handles(null));
    }
}
