package dev.larch.server.auth;

import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.larch.config.LarchConfig;
import dev.larch.config.Passwords;
import dev.larch.schema.LarchSchema;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.protocol.Session;
import org.apache.directory.api.ldap.model.entry.Attribute;
import org.apache.directory.api.ldap.model.entry.DefaultAttribute;
import org.apache.directory.api.ldap.model.entry.Value;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.name.Dn;
import org.apache.directory.api.ldap.model.schema.AttributeType;
import org.apache.directory.api.ldap.model.schema.SchemaManager;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IncomingPasswordsTest {
    private static final Passwords CHEAP = LarchConfig.builder()
            .set("security.pbkdf2-iterations", 1_000)
            .set("security.argon2-memory-kib", 64)
            .set("security.argon2-passes", 1)
            .build()
            .passwords();
    private static SchemaManager schema;
    private static AttributeType userPassword;

    @BeforeAll
    static void load() throws Exception {
        schema = LarchSchema.load(List.of());
        userPassword = schema.getAttributeType("userPassword");
    }

    private static IncomingPasswords incoming(boolean allowPrehashed) {
        return new IncomingPasswords(
                PasswordAttributes.of(schema),
                new PasswordHasher("PBKDF2-SHA256", CHEAP),
                allowPrehashed,
                HashCostLimits.iterations(1_000_000));
    }

    private static Session session(boolean admin) throws Exception {
        Session s = new Session(1, null);
        s.bound(new Dn("cn=someone"), admin);
        return s;
    }

    private static Attribute passwords(String... values) throws Exception {
        Attribute a = new DefaultAttribute(userPassword);
        for (String v : values) {
            a.add(v.getBytes(StandardCharsets.UTF_8));
        }
        return a;
    }

    private static byte[] ssha(String password) {
        return PasswordSchemes.hash("SSHA", password.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void prehashedValuesAreRefusedFromNonAdministrators() throws Exception {
        Attribute prehashed = passwords(new String(ssha("x"), StandardCharsets.US_ASCII));
        ResultCodeException e =
                assertThrows(ResultCodeException.class, () -> incoming(true).screen(session(false), prehashed));
        assertEquals(ResultCodeEnum.CONSTRAINT_VIOLATION, e.code());
        assertTrue(e.getMessage().contains("administrator"), e.getMessage());
    }

    @Test
    void prehashedValuesFromTheAdministratorAreKeptOnlyWhenAllowed() throws Exception {
        Attribute prehashed = passwords(new String(ssha("x"), StandardCharsets.US_ASCII));
        assertFalse(incoming(true).screen(session(true), prehashed));
        ResultCodeException e =
                assertThrows(ResultCodeException.class, () -> incoming(false).screen(session(true), prehashed));
        assertEquals(ResultCodeEnum.CONSTRAINT_VIOLATION, e.code());
        assertTrue(e.getMessage().contains("security.allow-prehashed-passwords"), e.getMessage());
    }

    @Test
    void anUnknownSchemePrefixIsCleartextAndGetsHashed() throws Exception {
        Attribute odd = passwords("{CRYPT}abc");
        IncomingPasswords in = incoming(true);
        assertTrue(in.screen(session(false), odd));
        Attribute hashed = in.hashed(odd);
        byte[] stored = hashed.get().getBytes();
        assertTrue(new String(stored, StandardCharsets.US_ASCII).startsWith("{PBKDF2-SHA256}1000$"));
        assertTrue(PasswordSchemes.verify(stored, "{CRYPT}abc".getBytes(StandardCharsets.UTF_8), false));
    }

    @Test
    void aCleartextDeleteValueResolvesToTheStoredHashItVerifiesAgainst() throws Exception {
        byte[] first = ssha("first");
        byte[] second = ssha("second");
        Attribute existing =
                passwords(new String(first, StandardCharsets.US_ASCII), new String(second, StandardCharsets.US_ASCII));
        IncomingPasswords in = incoming(true);
        Attribute resolved = in.storedValueFor(existing, passwords("second"));
        Value only = resolved.get();
        assertArrayEquals(second, only.getBytes());
        assertArrayEquals(
                "nothing".getBytes(StandardCharsets.UTF_8),
                in.storedValueFor(existing, passwords("nothing")).get().getBytes(),
                "an unmatched value stays, so the delete fails with noSuchAttribute");
        assertTrue(in.matchesAny(existing, "first".getBytes(StandardCharsets.UTF_8)));
        assertFalse(in.matchesAny(existing, "third".getBytes(StandardCharsets.UTF_8)));
    }
}
