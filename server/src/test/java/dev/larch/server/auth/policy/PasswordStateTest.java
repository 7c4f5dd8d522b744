package dev.larch.server.auth.policy;

import java.time.Instant;
import java.util.List;

import dev.larch.server.entry.EntryCodec;
import dev.larch.server.entry.StoredEntry;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PasswordStateTest {
    @Test
    void aStoredEntryHasTheStateOfItsApiForm() {
        Entry entry = PolicyFixtures.user(
                "pwdPolicySubentry: cn=Strict,dc=example,dc=com",
                "pwdChangedTime: 20260101000000Z",
                "pwdAccountLockedTime: 20260102000000Z",
                "pwdFailureTime: 20260103000000Z",
                "pwdFailureTime: 20260101120000Z",
                "pwdGraceUseTime: 20260104000000Z",
                "pwdReset: TRUE",
                "pwdLastSuccess: 20260105000000Z",
                "pwdStartTime: 20260106000000Z",
                "pwdEndTime: 20260107000000Z");

        PasswordState state = PasswordState.of(stored(entry), PolicyFixtures.SCHEMA);

        assertEquals(PasswordState.of(entry), state);
        assertEquals("cn=Strict,dc=example,dc=com", state.policySubentry());
        assertEquals(
                List.of(Instant.parse("2026-01-01T12:00:00Z"), Instant.parse("2026-01-03T00:00:00Z")),
                state.failureTimes(),
                "oldest first");
        assertTrue(state.reset());
        assertEquals(Instant.parse("2026-01-05T00:00:00Z"), state.lastSuccess());
        assertEquals(Instant.parse("2026-01-06T00:00:00Z"), state.startTime());
        assertEquals(Instant.parse("2026-01-07T00:00:00Z"), state.endTime());
    }

    @Test
    void anEntryWithoutPolicyAttributesHasAFreshState() {
        Entry entry = PolicyFixtures.user();

        PasswordState state = PasswordState.of(stored(entry), PolicyFixtures.SCHEMA);

        assertEquals(PasswordState.of(entry), state);
        assertEquals(PolicyFixtures.fresh(), state);
    }

    /** Each attribute alone is read from a stored entry: none is missed by the look at its attribute OIDs. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "pwdPolicySubentry: cn=Strict,dc=example,dc=com",
                "pwdChangedTime: 20260101000000Z",
                "pwdAccountLockedTime: 20260102000000Z",
                "pwdFailureTime: 20260103000000Z",
                "pwdGraceUseTime: 20260104000000Z",
                "pwdReset: TRUE",
                "pwdLastSuccess: 20260105000000Z",
                "pwdStartTime: 20260106000000Z",
                "pwdEndTime: 20260107000000Z"
            })
    void eachStateAttributeAloneIsReadFromAStoredEntry(String line) {
        Entry entry = PolicyFixtures.user(line);

        PasswordState state = PasswordState.of(stored(entry), PolicyFixtures.SCHEMA);

        assertEquals(PasswordState.of(entry), state);
        assertNotEquals(PolicyFixtures.fresh(), state);
    }

    @Test
    void openLdapsAdministrativeLockValueIsALockUntilRemoved() {
        for (String value : new String[] {"000001010000Z", "19700101000000Z"}) {
            Entry entry = PolicyFixtures.user("pwdAccountLockedTime: " + value);

            PasswordState state = PasswordState.of(stored(entry), PolicyFixtures.SCHEMA);

            assertEquals(PasswordState.LOCKED_UNTIL_REMOVED, state.accountLockedTime(), value);
            assertTrue(state.isLockedUntilRemoved(), value);
        }
    }

    @Test
    void aLockTimeThatIsNoReadableTimeLocksRatherThanBeingIgnored() {
        Entry entry = PolicyFixtures.user("pwdAccountLockedTime: 202601020000+0100");

        PasswordState state = PasswordState.of(entry);

        assertTrue(state.isLockedUntilRemoved());
    }

    @Test
    void anOrdinaryLockTimeIsNoAdministrativeLock() {
        PasswordState state = PasswordState.of(PolicyFixtures.user("pwdAccountLockedTime: 20260102000000Z"));

        assertEquals(Instant.parse("2026-01-02T00:00:00Z"), state.accountLockedTime());
        assertFalse(state.isLockedUntilRemoved());
    }

    private static StoredEntry stored(Entry entry) {
        return EntryCodec.toStored(5, 1, entry);
    }
}
