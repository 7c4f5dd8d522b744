package dev.larch.server.auth.policy;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.larch.server.commit.FailingCommits;
import dev.larch.server.commit.WriteQueue;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.testing.TestTree;
import org.apache.directory.api.ldap.extras.controls.ppolicy.PasswordPolicyErrorEnum;
import org.apache.directory.api.ldap.model.name.Dn;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The bind hook over a real store and write queue, with a clock the test moves. */
class BindPolicyTest {
    private static final String USER = "uid=u,ou=people,dc=example,dc=com";
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @TempDir
    Path dir;

    private TestTree tree;
    private FailingCommits commits;
    private WriteQueue writes;
    private PolicyStateWriter writer;
    private BindPolicy bind;
    private final MovableClock clock = new MovableClock(T0);

    @BeforeEach
    void open() {
        tree = new TestTree(dir).add("""
                dn: dc=example,dc=com
                objectClass: dcObject
                objectClass: organization
                dc: example
                o: Example

                dn: cn=policy,dc=example,dc=com
                objectClass: device
                objectClass: pwdPolicy
                cn: policy
                pwdAttribute: userPassword
                pwdLockout: TRUE
                pwdMaxFailure: 3
                pwdLockoutDuration: 60
                pwdMustChange: TRUE
                pwdMaxIdle: 864000

                dn: ou=people,dc=example,dc=com
                objectClass: organizationalUnit
                ou: people

                dn: uid=u,ou=people,dc=example,dc=com
                objectClass: inetOrgPerson
                uid: u
                cn: U
                sn: U
                userPassword: secret
                """);
        commits = new FailingCommits(tree.store);
        writes = commits.queue();
        writer = new PolicyStateWriter(tree.directory, writes);
        PolicyResolver resolver =
                new PolicyResolver(tree.directory, new PolicyCache(tree.directory), "cn=policy,dc=example,dc=com");
        bind = new BindPolicy(tree.directory, resolver, writer, clock);
    }

    @AfterEach
    void close() {
        writes.close();
        tree.close();
    }

    @Test
    void aFloodOfFailuresWhileAWriteWaitsBecomesOneWriteThatLocks() throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        writes.submitInternal("a slow write", txn -> awaitQuietly(release));
        BindPolicy.Governed governed = governed();
        for (int i = 0; i < 1000; i++) {
            clock.now = T0.plusMillis(i);
            bind.failed(governed);
        }
        assertEquals(1, writer.pendingCount());
        release.countDown();
        drain();

        PasswordState state = state();
        assertEquals(3, state.failureTimes().size());
        assertEquals(T0.plusMillis(2), state.accountLockedTime());
    }

    /**
     * Parallel binds fail within one millisecond; the times are written to the millisecond, so each
     * must be moved to one of its own or the account would store fewer failures than it counted and
     * never lock (BindAdmissionIT found it: a burst locked in memory, two failures stored).
     */
    @Test
    void failuresWithinOneMillisecondAreEachWrittenAndLock() throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        writes.submitInternal("a slow write", txn -> awaitQuietly(release));
        BindPolicy.Governed governed = governed();
        for (int i = 1; i <= 3; i++) {
            clock.now = T0.plusNanos(i * 100_000L);
            bind.failed(governed);
        }
        release.countDown();
        drain();

        PasswordState state = state();
        assertEquals(List.of(T0, T0.plusMillis(1), T0.plusMillis(2)), state.failureTimes());
        assertEquals(T0, state.accountLockedTime(), "the third failure's time, to the millisecond");
    }

    @Test
    void aStalledWriterClosesBindsOfOtherAccountsRatherThanDroppingTheirOutcomes() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        writes.submitInternal("a stalled write", txn -> awaitQuietly(release));
        PolicyStateWriter small = new PolicyStateWriter(tree.directory, writes, 2);
        BindPolicy bounded = new BindPolicy(
                tree.directory,
                new PolicyResolver(tree.directory, new PolicyCache(tree.directory), "cn=policy,dc=example,dc=com"),
                small,
                clock);
        BindPolicy.Governed user = governed(bounded);
        assertTrue(bounded.canRecord(user));
        Dn other1 = new Dn("uid=other1,ou=people,dc=example,dc=com");
        Dn other2 = new Dn("uid=other2,ou=people,dc=example,dc=com");
        PasswordPolicy policy = user.policy;
        small.failed(other1, policy, T0);
        small.failed(other2, policy, T0);

        assertFalse(bounded.canRecord(user), "a third account's bind must wait for the writer");
        assertTrue(small.accepting(other1), "an account with a write waiting joins it");
        // Checks that were already running when the bound was reached still count, up to the allowance.
        for (int i = 0; i < PolicyStateWriter.IN_FLIGHT_ALLOWANCE; i++) {
            small.failed(new Dn("uid=running" + i + ",ou=people,dc=example,dc=com"), policy, T0);
        }
        assertEquals(0, small.dropped());
        small.failed(new Dn("uid=beyond,ou=people,dc=example,dc=com"), policy, T0);
        assertEquals(1, small.dropped());

        release.countDown();
        drain();
        assertTrue(bounded.canRecord(user), "the writer caught up");
    }

    @Test
    void aFailedBindIsRecordedEvenWhenItsSharedCommitFailsAndItRunsAgainAlone() throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        writes.submitInternal("a slow write", txn -> awaitQuietly(release));
        bind.failed(governed());
        writes.submitInternal("a batch-mate", txn -> {});
        commits.refuseCommitAfter(2); // the slow write's commit passes, the shared one fails
        release.countDown();
        drain();

        assertEquals(List.of(T0), state().failureTimes());
    }

    @Test
    void aLockedAccountIsRefusedWithoutAPolicyErrorUntilTheLockRunsOut() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            bind.failed(governed());
            drain();
        }
        assertEquals(T0, state().accountLockedTime());

        clock.now = T0.plusSeconds(59);
        BindPolicy.Outcome locked = bind.succeeded(governed());
        assertFalse(locked.allowed());
        assertNull(locked.error());

        clock.now = T0.plusSeconds(60);
        assertTrue(bind.succeeded(governed()).allowed());
        drain();
        assertNull(state().accountLockedTime());
        assertTrue(state().failureTimes().isEmpty());
    }

    @Test
    void aLockedAccountRecordsNoMoreFailures() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            bind.failed(governed());
            drain();
        }
        clock.now = T0.plusSeconds(10);
        bind.failed(governed());
        assertEquals(0, writer.pendingCount());
    }

    @Test
    void aResetPasswordBindsWithChangeAfterReset() throws InterruptedException {
        store(PolicyAttributes.RESET, "TRUE");

        BindPolicy.Outcome outcome = bind.succeeded(governed());
        assertTrue(outcome.allowed());
        assertTrue(outcome.mustChange());
        assertEquals(PasswordPolicyErrorEnum.CHANGE_AFTER_RESET, outcome.error());
    }

    @Test
    void anAdministrativeLockRefusesTheRightPasswordWithOrWithoutAPolicy() throws InterruptedException {
        store(PolicyAttributes.ACCOUNT_LOCKED_TIME, "000001010000Z");
        BindPolicy ungoverned = new BindPolicy(
                tree.directory, new PolicyResolver(tree.directory, new PolicyCache(tree.directory), ""), writer, clock);
        clock.now = T0.plusSeconds(365L * 24 * 3600);

        for (BindPolicy policy : List.of(bind, ungoverned)) {
            BindPolicy.Outcome outcome = policy.succeeded(governed(policy));
            assertFalse(outcome.allowed());
            assertNull(outcome.error(), "a lock looks like a wrong password");
        }
        drain();
        assertEquals(PasswordState.LOCKED_UNTIL_REMOVED, state().accountLockedTime(), "no bind removes it");
    }

    @Test
    void aSuccessfulBindRecordsPwdLastSuccessAtMostOncePerPrecision() throws InterruptedException {
        assertTrue(bind.succeeded(governed()).allowed());
        drain();
        assertEquals(T0, state().lastSuccess());

        clock.now = T0.plusSeconds(3599);
        assertTrue(bind.succeeded(governed()).allowed());
        assertEquals(0, writer.pendingCount(), "within the precision: no write");

        clock.now = T0.plusSeconds(3600);
        assertTrue(bind.succeeded(governed()).allowed());
        drain();
        assertEquals(T0.plusSeconds(3600), state().lastSuccess());
    }

    @Test
    void anAccountIdleLongerThanPwdMaxIdleIsRefusedAsLockedWithTheAccountLockedError() throws InterruptedException {
        assertTrue(bind.succeeded(governed()).allowed());
        drain();
        clock.now = T0.plusSeconds(864001);

        BindPolicy.Outcome outcome = bind.succeeded(governed());
        assertFalse(outcome.allowed());
        assertEquals(PasswordPolicyErrorEnum.ACCOUNT_LOCKED, outcome.error());
        assertEquals(PasswordPolicyErrorEnum.ACCOUNT_LOCKED, bind.lockError(governed()));
        assertFalse(mayActAs());
        drain();
        assertEquals(T0, state().lastSuccess(), "a refused bind records nothing");
    }

    @Test
    void aBindOutsidePwdStartTimeOrPwdEndTimeIsRefusedAsLockedWithOrWithoutAPolicy() throws InterruptedException {
        BindPolicy ungoverned = new BindPolicy(
                tree.directory, new PolicyResolver(tree.directory, new PolicyCache(tree.directory), ""), writer, clock);
        store(PolicyAttributes.START_TIME, "20260101000100Z");
        store(PolicyAttributes.END_TIME, "20260101000200Z");
        for (BindPolicy policy : List.of(bind, ungoverned)) {
            clock.now = T0.plusSeconds(59);
            BindPolicy.Outcome early = policy.succeeded(governed(policy));
            assertFalse(early.allowed());
            assertEquals(PasswordPolicyErrorEnum.ACCOUNT_LOCKED, early.error());
            clock.now = T0.plusSeconds(60);
            assertTrue(policy.succeeded(governed(policy)).allowed());
            clock.now = T0.plusSeconds(120);
            assertFalse(policy.succeeded(governed(policy)).allowed());
            assertEquals(PasswordPolicyErrorEnum.ACCOUNT_LOCKED, policy.lockError(governed(policy)));
        }
    }

    @Test
    void aFailureLockoutStaysHiddenInTheLockError() throws InterruptedException {
        store(PolicyAttributes.ACCOUNT_LOCKED_TIME, "000001010000Z");
        assertNull(bind.lockError(governed()));
    }

    @Test
    void anUngovernedEntryWithoutALockHasNoPolicyPart() {
        BindPolicy ungoverned = new BindPolicy(
                tree.directory, new PolicyResolver(tree.directory, new PolicyCache(tree.directory), ""), writer, clock);
        assertNull(governed(ungoverned));
    }

    @Test
    void nobodyMayActAsALockedOrResetAccount() throws InterruptedException {
        assertTrue(mayActAs());
        store(PolicyAttributes.ACCOUNT_LOCKED_TIME, "20251231235930Z");
        assertFalse(mayActAs(), "locked 30 s ago, for 60 s");
        clock.now = T0.plusSeconds(30);
        assertTrue(mayActAs(), "the lock ran out");
        store(PolicyAttributes.RESET, "TRUE");
        assertFalse(mayActAs(), "pwdMustChange: the reset password must be changed first");
    }

    private boolean mayActAs() {
        try (ReadTxn txn = tree.store.read()) {
            return bind.mayActAs(txn, tree.directory.load(txn, tree.directory.require(txn, dn())));
        }
    }

    /** Adds {@code value} to the user's {@code attribute}, as an administrator's modify would. */
    private void store(String attribute, String value) throws InterruptedException {
        writes.submitInternal("set " + attribute, txn -> {
            var before = tree.directory.load(txn, tree.directory.require(txn, dn()));
            var entry = tree.schemaNormalizer.toEntry(before);
            try {
                entry.add(attribute, value);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            tree.directory.replace(txn, before, entry);
        });
        drain(); // the change's commit happens after its task returns
    }

    private BindPolicy.Governed governed(BindPolicy policy) {
        try (ReadTxn txn = tree.store.read()) {
            return policy.read(txn, tree.directory.load(txn, tree.directory.require(txn, dn())));
        }
    }

    private BindPolicy.Governed governed() {
        try (ReadTxn txn = tree.store.read()) {
            return bind.read(txn, tree.directory.load(txn, tree.directory.require(txn, dn())));
        }
    }

    private PasswordState state() {
        try (ReadTxn txn = tree.store.read()) {
            return PasswordState.of(
                    tree.schemaNormalizer.toEntry(tree.directory.load(txn, tree.directory.require(txn, dn()))));
        }
    }

    private Dn dn() {
        return tree.schemaNormalizer.dn(USER);
    }

    /**
     * Waits until every write queued so far has committed: an action between writes runs only then
     * (a write's own work may run before an earlier write of its batch committed).
     */
    private void drain() throws InterruptedException {
        CountDownLatch done = new CountDownLatch(1);
        assertTrue(writes.runBetweenWrites(done::countDown));
        assertTrue(done.await(10, TimeUnit.SECONDS));
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A clock the test sets. */
    private static final class MovableClock extends Clock {
        volatile Instant now;

        MovableClock(Instant start) {
            this.now = start;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
