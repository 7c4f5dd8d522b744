package dev.larch.server.auth;

import java.util.List;

import dev.larch.schema.LarchSchema;
import org.apache.directory.api.ldap.model.schema.SchemaManager;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PasswordAttributesTest {
    private static PasswordAttributes passwords;

    @BeforeAll
    static void load() throws Exception {
        SchemaManager schema = LarchSchema.load(List.of());
        passwords = PasswordAttributes.of(schema);
    }

    @Test
    void userPasswordAuthPasswordAndPwdHistoryAreProtected() {
        assertTrue(passwords.isProtected(PasswordAttributes.USER_PASSWORD_OID));
        assertTrue(passwords.isProtected(PasswordAttributes.AUTH_PASSWORD_OID));
        assertTrue(passwords.isProtected(PasswordAttributes.PWD_HISTORY_OID));
        assertFalse(passwords.isProtected("2.5.4.3")); // cn
    }

    @Test
    void onlyUserPasswordIsHashedOnWrite() {
        assertTrue(passwords.isHashedOnWrite(PasswordAttributes.USER_PASSWORD_OID));
        assertFalse(passwords.isHashedOnWrite(PasswordAttributes.AUTH_PASSWORD_OID));
        assertFalse(passwords.isHashedOnWrite(PasswordAttributes.PWD_HISTORY_OID));
    }

    @Test
    void descriptionsMatchIgnoringCaseOptionsAndOidForm() {
        for (String d : new String[] {
            "userPassword",
            "USERPASSWORD",
            "userPassword;x-foo",
            "2.5.4.35",
            "OID.2.5.4.35",
            "oid.2.5.4.35;binary",
            " userPassword ",
            "authPassword",
            "pwdHistory"
        }) {
            assertTrue(passwords.isProtectedDescription(d), d);
            assertTrue(PasswordAttributes.STANDARD.isProtectedDescription(d), d);
        }
        assertFalse(passwords.isProtectedDescription("cn"));
        assertFalse(passwords.isProtectedDescription("userPasswordHint"));
        assertFalse(passwords.isProtectedDescription(null));
        for (String d : new String[] {"", ";", "oid.", "userPasswor", "2.5.4.3", "2.5.4.35.1", "x;userPassword"}) {
            assertFalse(passwords.isProtectedDescription(d), d);
            assertFalse(PasswordAttributes.STANDARD.isProtectedDescription(d), d);
        }
    }
}
