package dev.larch.server.store;

import java.util.List;

import org.junit.jupiter.api.Test;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** DN keys: RDNs reversed at unescaped commas, so every DN below a root starts with the root's key. */
class DnKeysTest {
    private static String reverse(String dn) {
        return new String(DnKeys.reverse(dn.getBytes(UTF_8)), UTF_8);
    }

    private static boolean below(String dn, String root) {
        String key = reverse(dn);
        String prefix = new String(DnKeys.prefixBelow(root), UTF_8);
        return key.startsWith(prefix);
    }

    @Test
    void theRdnsAreReversedAndReversedBack() {
        for (String dn : List.of(
                "uid=a,ou=x,dc=example,dc=com",
                "dc=com",
                "",
                "cn=a\\,b,ou=x\\\\,dc=com",
                "cn=a+sn=b,ou=ü,dc=com",
                "cn=a\\2Cb,dc=com")) {
            assertEquals(dn.length(), reverse(dn).length(), dn);
            assertEquals(dn, reverse(reverse(dn)), dn);
        }
        assertEquals("dc=com,dc=example,ou=x,uid=a", reverse("uid=a,ou=x,dc=example,dc=com"));
        assertEquals("dc=com,ou=x\\\\,cn=a\\,b", reverse("cn=a\\,b,ou=x\\\\,dc=com"));
    }

    @Test
    void exactlyTheDnsStrictlyBelowARootHaveItsPrefix() {
        String root = "ou=x,dc=example,dc=com";
        assertTrue(below("uid=a,ou=x,dc=example,dc=com", root));
        assertTrue(below("uid=a,ou=b,ou=x,dc=example,dc=com", root));
        assertFalse(below(root, root), "the root itself");
        assertFalse(below("uid=a,ou=xy,dc=example,dc=com", root), "a sibling whose name starts like it");
        assertFalse(below("cn=a\\,ou=x,dc=example,dc=com", root), "an escaped comma is no RDN boundary");
        assertTrue(below("uid=a,ou=x\\\\,dc=com", "ou=x\\\\,dc=com"), "an escaped backslash before a boundary");
        assertFalse(below("uid=a\\,ou=x\\\\,dc=com", "ou=x\\\\,dc=com"));
    }

    @Test
    void onlyDnValuedSyntaxesAreReversed() {
        assertTrue(DnKeys.reverses("1.3.6.1.4.1.1466.115.121.1.12"));
        assertTrue(DnKeys.reverses("1.3.6.1.4.1.1466.115.121.1.34"));
        assertFalse(DnKeys.reverses("1.3.6.1.4.1.1466.115.121.1.15"));
        assertFalse(DnKeys.reverses(null));
    }
}
