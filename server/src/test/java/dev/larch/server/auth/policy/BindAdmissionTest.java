package dev.larch.server.auth.policy;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.directory.api.ldap.model.name.Dn;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The admission rule, driven by hand: no thread, no server, a fake clock. */
class BindAdmissionTest {
    private final AtomicLong nanos = new AtomicLong(1_000);
    private final BindAdmission admission =
            new BindAdmission(3, 0, Clock.fixed(Instant.parse("2026-11-28T10:00:00Z"), ZoneOffset.UTC), nanos::get);

    /** Records what the admission did with it. */
    private static final class Probe implements BindAdmission.Candidate {
        final List<String> events = Collections.synchronizedList(new ArrayList<>());
        volatile BindAdmission.Slot slot;
        ScheduledExecutorService scheduler;

        @Override
        public void start(BindAdmission.Slot s) {
            // The event first: a test that waits for the slot on another thread then finds the event.
            events.add("start");
            slot = s;
        }

        @Override
        public void refuseLocked() {
            events.add("locked");
        }

        @Override
        public void refuseBusy(String message) {
            events.add("busy");
        }

        @Override
        public ScheduledExecutorService scheduler() {
            return scheduler;
        }

        String last() {
            return events.isEmpty() ? "none" : events.get(events.size() - 1);
        }
    }

    private List<Probe> admitAdministrator(int count) {
        List<Probe> probes = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Probe p = new Probe();
            admission.admitAdministrator(p);
            probes.add(p);
        }
        return probes;
    }

    @Test
    void aBurstGetsNoMoreChecksThanTheFailuresLeftAndTheRestAreRefusedOnceLocked() {
        List<Probe> burst = admitAdministrator(20);
        // Three failures lock; three checks may run, the others wait.
        assertEquals(3, burst.stream().filter(p -> p.last().equals("start")).count());
        for (Probe p : burst.subList(0, 3)) {
            p.slot.failed(0);
        }
        // Locked after the third: every waiting bind is refused without a check.
        assertEquals(17, burst.stream().filter(p -> p.last().equals("locked")).count());
        assertEquals("locked", admitAdministrator(1).get(0).last());
    }

    @Test
    void afterAFailureChecksRunOneAtATimeAndOnlyOnceTheDelayIsOver() throws Exception {
        BindAdmission real = new BindAdmission(0, 0, Clock.systemUTC(), System::nanoTime);
        ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor();
        try {
            Probe first = new Probe();
            real.admitAdministrator(first);
            long failedAt = System.nanoTime();
            first.slot.failed(TimeUnit.MILLISECONDS.toNanos(200));
            Probe second = new Probe();
            Probe third = new Probe();
            second.scheduler = loop;
            third.scheduler = loop;
            real.admitAdministrator(second);
            real.admitAdministrator(third);
            assertEquals("none", second.last(), "the delay is not over");
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (second.slot == null && System.nanoTime() < until) {
                Thread.sleep(5);
            }
            assertEquals("start", second.last());
            assertTrue(System.nanoTime() - failedAt >= TimeUnit.MILLISECONDS.toNanos(200));
            assertEquals("none", third.last(), "one at a time after a failure");
            second.slot.matched();
            assertEquals("start", third.last(), "a success lets the next one go at once");
        } finally {
            loop.shutdownNow();
        }
    }

    @Test
    void aPolicysFailureDelayStartsAtPwdMinDelayDoublesUpToPwdMaxDelayAndASuccessResetsIt() {
        PasswordPolicy slow = PolicyFixtures.policy("pwdMinDelay: 1", "pwdMaxDelay: 3");
        BindPolicy.Governed governed = new BindPolicy.Governed(Dn.EMPTY_DN, slow, PolicyFixtures.fresh());
        long shortHold = TimeUnit.MILLISECONDS.toNanos(5);
        for (long expected : new long[] {1, 2, 3, 3}) {
            Probe p = new Probe();
            admission.admit("uid=slow", governed, p);
            assertEquals("start", p.last(), "the previous delay is over");
            long hold = p.slot.failed(shortHold);
            assertEquals(TimeUnit.SECONDS.toNanos(expected), hold);
            nanos.addAndGet(hold);
        }
        Probe success = new Probe();
        admission.admit("uid=slow", governed, success);
        success.slot.matched();
        Probe again = new Probe();
        admission.admit("uid=slow", governed, again);
        assertEquals(TimeUnit.SECONDS.toNanos(1), again.slot.failed(shortHold), "a success starts the count over");
        Probe early = new Probe();
        admission.admit("uid=slow", governed, early);
        assertEquals("none", early.last(), "the next check waits for the policy's delay");
        nanos.addAndGet(TimeUnit.SECONDS.toNanos(2));
        Probe later = new Probe();
        admission.admit("uid=slow", governed, later);
        assertEquals("none", later.last(), "in order, behind the waiting one");
    }

    @Test
    void aLongerHoldFromTheCallerWinsOverThePolicysDelay() {
        PasswordPolicy slow = PolicyFixtures.policy("pwdMinDelay: 1", "pwdMaxDelay: 3");
        Probe p = new Probe();
        admission.admit("uid=held", new BindPolicy.Governed(Dn.EMPTY_DN, slow, PolicyFixtures.fresh()), p);
        assertEquals(TimeUnit.SECONDS.toNanos(5), p.slot.failed(TimeUnit.SECONDS.toNanos(5)));
    }

    @Test
    void anAccountOutsideItsWindowIsRefusedWithoutACheck() {
        PasswordState ended = new PasswordState(
                null, null, null, List.of(), List.of(), false, null, null, Instant.parse("2026-11-28T09:00:00Z"));
        Probe p = new Probe();
        admission.admit("uid=ended", new BindPolicy.Governed(Dn.EMPTY_DN, PasswordPolicy.NONE, ended), p);
        assertEquals("locked", p.last());
    }

    @Test
    void aSuccessForgetsTheFailures() {
        admitAdministrator(1).get(0).slot.failed(0);
        admitAdministrator(1).get(0).slot.failed(0);
        admitAdministrator(1).get(0).slot.matched();
        admitAdministrator(1).get(0).slot.failed(0);
        admitAdministrator(1).get(0).slot.failed(0);
        assertEquals("start", admitAdministrator(1).get(0).last(), "two failures since the success, not four");
    }

    @Test
    void recordsAreBoundedAndOnlyIdleOnesAreForgotten() {
        for (int i = 0; i < BindAdmission.MAX_ACCOUNTS + 10; i++) {
            Probe p = new Probe();
            admission.admit("uid=u" + i, null, p);
            p.slot.released();
        }
        assertEquals(BindAdmission.MAX_ACCOUNTS, admission.tracked());
    }
}
