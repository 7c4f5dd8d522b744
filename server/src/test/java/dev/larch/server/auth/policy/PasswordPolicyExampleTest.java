package dev.larch.server.auth.policy;

import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.directory.api.ldap.model.entry.DefaultEntry;
import org.apache.directory.api.ldap.model.ldif.LdifEntry;
import org.apache.directory.api.ldap.model.ldif.LdifReader;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The example policy the README points to loads under Larch's schema and means what its comments say. */
class PasswordPolicyExampleTest {
    private static final Path EXAMPLE = Path.of("..", "config", "password-policy.ldif");

    @Test
    void theExamplePolicyLoadsAndStatesEveryRule() throws Exception {
        PasswordPolicy policy = null;
        try (LdifReader reader = new LdifReader(Files.newBufferedReader(EXAMPLE))) {
            for (LdifEntry record : reader) {
                DefaultEntry entry = new DefaultEntry(PolicyFixtures.SCHEMA, record.getEntry());
                if (PasswordPolicy.isPolicy(entry)) {
                    policy = PasswordPolicy.from(entry);
                }
            }
        }
        assertTrue(policy != null, "a pwdPolicy entry");
        assertEquals(86400, policy.minAge());
        assertEquals(128, policy.maxLength());
        assertEquals(3, policy.minCharClasses());
        assertEquals(604800, policy.graceExpiry());
        assertEquals(15552000, policy.maxIdle());
        assertEquals(1, policy.minDelay());
        assertEquals(30, policy.maxDelay());
        assertEquals(5, policy.maxFailure());
    }
}
