package dev.larch.server.auth;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.larch.server.auth.policy.BindAdmission;
import dev.larch.server.auth.policy.BindPolicy;
import dev.larch.server.auth.policy.PpolicyControls;
import dev.larch.server.auth.sasl.SaslBinds;
import dev.larch.server.auth.sasl.SaslIdentity;
import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.error.FailureResults;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.protocol.Operation;
import dev.larch.server.protocol.Session;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.work.WorkerPool;
import org.apache.directory.api.ldap.extras.controls.ppolicy.PasswordPolicyErrorEnum;
import org.apache.directory.api.ldap.model.message.BindRequest;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.name.Dn;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Simple binds (RFC 4513 section 5.1): anonymous, the administrator, and entries with a
 * {@code userPassword}. SASL is refused with authMethodNotSupported. A failed bind leaves the
 * connection anonymous.
 *
 * <p>The request is validated and the entry read on the event loop; the password is hashed on the
 * {@link WorkerPool} (busy when it is full), and the answer goes back through the event loop, which
 * records a successful identity unless the bind was abandoned meanwhile (a newer bind abandons it).
 * A password that matches a value one digest checks ({@code {SSHA}}) is answered on the event loop
 * without the worker; a mismatch always goes to the worker.
 * Unknown DNs, entries without a password and wrong passwords get the same answer after the same
 * work: a DN without a password is checked against a decoy hash of the configured scheme. Failures
 * are answered after the growing delay of {@link FailedBindDelays}, scheduled on the event loop; no
 * thread sleeps.
 *
 * <p>Every password check is admitted per account by {@link BindAdmission}, which counts failures and
 * decides lockout as the binds arrive, so binds sent in parallel are checked one after the other once
 * one has failed: a burst of guesses is stopped by the lock, and a right guess inside it is refused.
 *
 * <p>When a password policy governs the entry ({@link BindPolicy}), a failure is counted towards its
 * lockout, and a right password on a locked or fully expired account gets the same answer and delay
 * as a wrong one; warnings and errors go in the password policy response control.
 */
public final class BindHandler {
    private static final Logger LOG = LoggerFactory.getLogger(BindHandler.class);
    /** DNs already warned about an over-costly hash; bounded so that warnings cannot grow memory. */
    private static final int MAX_WARNED = 1024;

    private final Directory directory;
    private final Credentials credentials;
    private final WorkerPool workers;
    private final FailedBindDelays delays;
    /** The password policy's part; null when the server enforces none (tools, old tests). */
    private final BindPolicy policy;

    private final LruMap<String, Boolean> warnedTooCostly = new LruMap<>(MAX_WARNED);
    private final SaslBinds sasl;
    private final TransportRule transport;
    private final BindAdmission admission;
    /** Null when {@code security.rehash-on-bind} is off. */
    private final PasswordRehash rehash;

    private final SuspectChecks suspects;

    /** Without SASL nor password policy; passwords need TLS except from local clients (the default rule). */
    public BindHandler(Directory directory, Credentials credentials, WorkerPool workers, FailedBindDelays delays) {
        this(
                directory,
                credentials,
                workers,
                delays,
                SaslBinds.NONE,
                new TransportRule(true),
                null,
                new BindAdmission(0, 0, Clock.systemUTC(), System::nanoTime),
                null,
                new SuspectChecks(Integer.MAX_VALUE, Integer.MAX_VALUE));
    }

    /**
     * @param policy the password policy's part in password binds; null for none
     * @param admission admits password checks per account (lockout, the administrator's included)
     * @param rehash re-hashes a matched password stored in another scheme or cost; null for never
     * @param suspects bounds the checks of clients that have been failing
     */
    public BindHandler(
            Directory directory,
            Credentials credentials,
            WorkerPool workers,
            FailedBindDelays delays,
            SaslBinds sasl,
            TransportRule transport,
            BindPolicy policy,
            BindAdmission admission,
            PasswordRehash rehash,
            SuspectChecks suspects) {
        this.admission = admission;
        this.rehash = rehash;
        this.suspects = suspects;
        this.sasl = sasl;
        this.transport = transport;
        this.directory = directory;
        this.credentials = credentials;
        this.workers = workers;
        this.delays = delays;
        this.policy = policy;
    }

    /** Called on the connection's event loop. */
    public void handle(Operation op, BindRequest request) {
        op.session().bound(Dn.EMPTY_DN, false);
        if (!request.getVersion3()) {
            throw new ResultCodeException(ResultCodeEnum.PROTOCOL_ERROR, "only LDAP version 3 is supported");
        }
        if (!request.isSimple()) {
            SaslIdentity identity = sasl.identify(op.session(), request);
            if (identity.provenByCertificate()) {
                certificateBind(op, request, identity.dn());
            } else {
                passwordBind(op, request, identity.dn(), identity.password());
            }
            return;
        }
        String name = request.getName() == null ? "" : request.getName();
        byte[] password = request.getCredentials() == null ? new byte[0] : request.getCredentials();
        if (name.isEmpty()) {
            if (password.length > 0) {
                throw new ResultCodeException(ResultCodeEnum.INVALID_CREDENTIALS, "a password was given without a DN");
            }
            complete(op, request, ResultCodeEnum.SUCCESS, "");
            return;
        }
        Dn dn = directory.schemaNormalizer().dn(name);
        if (password.length == 0) {
            throw new ResultCodeException(
                    ResultCodeEnum.UNWILLING_TO_PERFORM,
                    "unauthenticated bind (DN with an empty password) is not allowed");
        }
        transport.checkPasswordMayTravel(op.session());
        passwordBind(op, request, dn, password);
    }

    /** Checks {@code password} for {@code dn} off the event loop, after any failed-bind delay. */
    private void passwordBind(Operation op, BindRequest request, Dn dn, byte[] password) {
        boolean admin = dn.equals(credentials.adminDn());
        Attempt attempt = new Attempt(op, request, dn, admin, password, addressOf(op));
        if (!admin) {
            readEntry(attempt);
        }
        long wait = delays.nanosBeforeAttempt(dn, attempt.address);
        if (wait > 0) {
            op.executor().schedule(() -> admit(attempt), wait, TimeUnit.NANOSECONDS);
        } else {
            admit(attempt);
        }
    }

    /** Hands the attempt to its account's admission, which starts, keeps or refuses it. */
    private void admit(Attempt attempt) {
        if (attempt.op.isAbandoned()) {
            return;
        }
        if (delays.suspect(attempt.address)) {
            InetAddress client = delays.clientKey(attempt.address);
            if (!suspects.tryAcquire(client)) {
                complete(
                        attempt.op,
                        attempt.request,
                        ResultCodeEnum.BUSY,
                        "too many password checks from this failing client address are in progress"
                                + " (security.suspect-checks-per-address, security.suspect-checks-total);"
                                + " try again later");
                return;
            }
            attempt.suspect = client;
        }
        BindAdmission.Candidate candidate = new BindAdmission.Candidate() {
            @Override
            public void start(BindAdmission.Slot slot) {
                attempt.slot = slot;
                submit(attempt);
            }

            @Override
            public void refuseLocked() {
                // A failure lockout stays hidden; a closed window or an idle account says so.
                fail(attempt, policy == null ? null : policy.lockError(attempt.governed), false);
            }

            @Override
            public ScheduledExecutorService scheduler() {
                return attempt.op.executor();
            }

            @Override
            public void refuseBusy(String message) {
                releaseSuspect(attempt);
                onEventLoop(attempt.op, () -> complete(attempt.op, attempt.request, ResultCodeEnum.BUSY, message), 0);
            }
        };
        if (attempt.admin) {
            admission.admitAdministrator(candidate);
        } else {
            admission.admit(attempt.dn.getNormName(), attempt.governed, candidate);
        }
    }

    /**
     * SASL EXTERNAL: the TLS layer verified the certificate; {@code dn} null means it maps to no entry,
     * which fails like a wrong password, after the same growing delay. A mapped entry is judged by its
     * password policy as a right password would be: a locked or expired account fails the same way. The
     * identity is that entry, never the administrator, whatever its DN.
     */
    private void certificateBind(Operation op, BindRequest request, Dn dn) {
        InetAddress address = addressOf(op);
        BindPolicy.Outcome verdict = dn == null ? null : certificateVerdict(dn);
        if (dn != null && (verdict == null || verdict.allowed())) {
            op.session().bound(dn, false);
            op.session().authMethod(Session.AUTH_SSL);
            delays.succeeded(dn);
            ResultResponse response = response(request, ResultCodeEnum.SUCCESS, "");
            if (verdict != null) {
                op.session().mustChangePassword(verdict.mustChange());
                PpolicyControls.answer(
                        request, response, verdict.timeBeforeExpiration(), verdict.graceRemaining(), verdict.error());
            }
            op.complete(response);
            return;
        }
        long delay = delays.failed(dn == null ? Dn.EMPTY_DN : dn, address);
        String message = dn == null ? "the client certificate maps to no entry" : "invalid credentials";
        onEventLoop(
                op,
                () -> {
                    ResultResponse response = response(request, ResultCodeEnum.INVALID_CREDENTIALS, message);
                    if (verdict != null && verdict.error() != null) {
                        PpolicyControls.error(request, response, verdict.error());
                    }
                    op.complete(response);
                },
                delay);
    }

    /** The password policy's verdict on a certificate bind as {@code dn}; null when no policy applies. */
    private BindPolicy.Outcome certificateVerdict(Dn dn) {
        if (policy == null) {
            return null;
        }
        try (ReadTxn txn = directory.store().read()) {
            long id = directory.resolve(txn, dn);
            // Read in place: only the password and the policy state are taken, copied, before the
            // transaction ends (a whole-entry copy was 1.9% of the server's CPU under authrate).
            StoredEntry entry = id == ReadTxn.NOT_FOUND ? null : directory.loadInPlace(txn, id);
            BindPolicy.Governed governed = entry == null ? null : policy.read(txn, entry);
            return governed == null ? null : policy.succeeded(governed);
        }
    }

    /**
     * Reads the {@code userPassword} values of the attempt's entry (copied out of the transaction;
     * empty when none) and, when a password policy governs it, its policy state.
     */
    private void readEntry(Attempt attempt) {
        try (ReadTxn txn = directory.store().read()) {
            long id = directory.resolve(txn, attempt.dn);
            // Read in place: only the password and the policy state are taken, copied, before the
            // transaction ends (a whole-entry copy was 1.9% of the server's CPU under authrate).
            StoredEntry entry = id == ReadTxn.NOT_FOUND ? null : directory.loadInPlace(txn, id);
            StoredAttribute stored = entry == null ? null : entry.attribute(PasswordAttributes.USER_PASSWORD_OID);
            if (stored == null) {
                attempt.stored = new byte[0][];
                return;
            }
            byte[][] values = new byte[stored.size()][];
            for (int i = 0; i < values.length; i++) {
                values[i] = stored.values()[i].clone();
            }
            attempt.stored = values;
            attempt.governed = policy == null ? null : policy.read(txn, entry);
        }
    }

    /** Called with the attempt's slot, on whichever thread admitted it. */
    private void submit(Attempt attempt) {
        if (attempt.op.isAbandoned()) {
            attempt.slot.released();
            releaseSuspect(attempt);
            return;
        }
        if (attempt.governed != null && !policy.canRecord(attempt.governed)) {
            refuseUnchecked(attempt, "password policy state writes are behind; try the bind again later");
            return;
        }
        if (matchedOnEventLoop(attempt)) {
            succeed(attempt);
            return;
        }
        if (!workers.trySubmitThen(() -> verify(attempt))) {
            refuseUnchecked(attempt, "the server is busy; try the bind again later");
        }
    }

    /**
     * Whether the password matches a stored value that one digest checks ({@code {SSHA}} and the like,
     * as imported from slapd), tried here when the attempt started on its own event loop: such a match
     * is answered at once, since the hop to a worker and back costs the event loop more than the
     * digest does. Everything else goes to the worker as before: the administrator, a match that is
     * to be re-hashed, and every mismatch, whose full check there pays a failure's cost (the decoy's),
     * so that failures take as long as they did.
     */
    private boolean matchedOnEventLoop(Attempt attempt) {
        if (attempt.admin || !attempt.op.executor().inEventLoop()) {
            return false;
        }
        try {
            for (byte[] value : attempt.stored) {
                if (credentials.matchesCheaply(value, attempt.password)) {
                    if (rehash != null && !credentials.isCurrent(value)) {
                        return false;
                    }
                    attempt.matched = value;
                    return true;
                }
            }
        } catch (RuntimeException e) {
            // The worker's full check meets the same value and answers for it.
            return false;
        }
        return false;
    }

    /** Answers busy without checking the password, giving back the attempt's places. */
    private void refuseUnchecked(Attempt attempt, String message) {
        attempt.slot.released();
        releaseSuspect(attempt);
        onEventLoop(attempt.op, () -> complete(attempt.op, attempt.request, ResultCodeEnum.BUSY, message), 0);
    }

    /**
     * On a worker thread: hashes, and returns how to answer (through the event loop), which the pool
     * runs once this bind's place in it is free; null for an abandoned bind.
     */
    private Runnable verify(Attempt attempt) {
        if (attempt.op.isAbandoned()) {
            attempt.slot.released();
            releaseSuspect(attempt);
            return null;
        }
        PasswordCheck outcome;
        try {
            outcome = check(attempt);
        } catch (RuntimeException e) {
            attempt.slot.released();
            releaseSuspect(attempt);
            return () -> attempt.op.complete(FailureResults.fill(attempt.request.getResultResponse(), e));
        }
        if (outcome == PasswordCheck.MATCH) {
            if (rehash != null && attempt.matched != null && !credentials.isCurrent(attempt.matched)) {
                attempt.rehashed = rehash.hash(attempt.password);
            }
            return () -> onEventLoop(attempt.op, () -> succeed(attempt), 0);
        }
        if (outcome == PasswordCheck.TOO_COSTLY) {
            warnTooCostly(attempt.dn);
        }
        if (attempt.governed != null) {
            policy.failed(attempt.governed);
        }
        return () -> fail(attempt, null, true);
    }

    /**
     * Answers invalidCredentials after the failed-bind delay, for which the account's next check
     * also waits; {@code policyError} only for a client that asked.
     *
     * @param wrongPassword the check found a wrong password: the account's admission counts it
     */
    private void fail(Attempt attempt, PasswordPolicyErrorEnum policyError, boolean wrongPassword) {
        long delay = delays.failed(attempt.dn, attempt.address);
        if (attempt.slot != null) {
            if (wrongPassword) {
                // The policy's own delay (pwdMinDelay) may be the longer one.
                delay = attempt.slot.failed(delay);
            } else {
                attempt.slot.refused(delay);
            }
        }
        onEventLoop(
                attempt.op,
                () -> {
                    releaseSuspect(attempt);
                    ResultResponse response =
                            response(attempt.request, ResultCodeEnum.INVALID_CREDENTIALS, "invalid credentials");
                    if (policyError != null) {
                        PpolicyControls.error(attempt.request, response, policyError);
                    }
                    attempt.op.complete(response);
                },
                delay);
    }

    private PasswordCheck check(Attempt attempt) {
        if (attempt.admin) {
            return credentials.checkAdmin(attempt.password);
        }
        if (attempt.stored.length == 0) {
            credentials.checkAgainstNothing(attempt.password);
            return PasswordCheck.MISMATCH;
        }
        PasswordCheck outcome = PasswordCheck.MISMATCH;
        for (byte[] value : attempt.stored) {
            PasswordCheck check = credentials.check(value, attempt.password);
            if (check == PasswordCheck.MATCH) {
                attempt.matched = value;
                return check;
            }
            if (check == PasswordCheck.TOO_COSTLY) {
                outcome = check;
            }
        }
        return outcome;
    }

    /** On the event loop, where abandon happens: an abandoned bind must not change the identity. */
    private void succeed(Attempt attempt) {
        if (attempt.op.isAbandoned()) {
            attempt.slot.released();
            releaseSuspect(attempt);
            return;
        }
        BindPolicy.Outcome verdict = attempt.governed == null ? null : policy.succeeded(attempt.governed);
        if (verdict != null && !verdict.allowed()) {
            // Locked, or expired without grace logins: the same answer and delay as a wrong password.
            fail(attempt, verdict.error(), false);
            return;
        }
        attempt.slot.matched();
        attempt.op.session().bound(attempt.dn, attempt.admin);
        if (!attempt.request.isSimple()) {
            attempt.op.session().authMethod(Session.AUTH_SASL);
        }
        delays.succeeded(attempt.dn, attempt.address);
        releaseSuspect(attempt);
        if (attempt.rehashed != null) {
            rehash.store(attempt.dn, attempt.matched, attempt.rehashed);
        }
        ResultResponse response = response(attempt.request, ResultCodeEnum.SUCCESS, "");
        if (verdict != null) {
            attempt.op.session().mustChangePassword(verdict.mustChange());
            PpolicyControls.answer(
                    attempt.request,
                    response,
                    verdict.timeBeforeExpiration(),
                    verdict.graceRemaining(),
                    verdict.error());
        }
        attempt.op.complete(response);
    }

    private void warnTooCostly(Dn dn) {
        boolean first;
        synchronized (warnedTooCostly) {
            first = warnedTooCostly.put(dn.getNormName(), Boolean.TRUE) == null;
        }
        if (first) {
            LOG.warn(
                    "bind as {} refused: its password hash costs more than security.max-password-iterations"
                            + " or security.max-argon2-* allow; re-hash it (warned once per DN)",
                    dn.getName());
        }
    }

    /** Gives back the attempt's place among a failing address's checks, if it holds one; once. */
    private void releaseSuspect(Attempt attempt) {
        InetAddress client;
        synchronized (attempt) {
            client = attempt.suspect;
            attempt.suspect = null;
        }
        if (client != null) {
            suspects.release(client);
        }
    }

    private static void onEventLoop(Operation op, Runnable task, long delayNanos) {
        try {
            if (delayNanos > 0) {
                op.executor().schedule(task, delayNanos, TimeUnit.NANOSECONDS);
            } else {
                op.executor().execute(task);
            }
        } catch (RejectedExecutionException e) {
            // The event loop is shutting down, and the connection with it: nobody awaits the answer.
        }
    }

    private static void complete(Operation op, BindRequest request, ResultCodeEnum code, String message) {
        op.complete(response(request, code, message));
    }

    private static ResultResponse response(BindRequest request, ResultCodeEnum code, String message) {
        ResultResponse response = request.getResultResponse();
        response.getLdapResult().setResultCode(code);
        if (!message.isEmpty()) {
            response.getLdapResult().setDiagnosticMessage(message);
        }
        return response;
    }

    private static InetAddress addressOf(Operation op) {
        return op.session().remoteAddress() instanceof InetSocketAddress socket ? socket.getAddress() : null;
    }

    /** One bind on its way from the event loop through a worker and back. */
    private static final class Attempt {
        final Operation op;
        final BindRequest request;
        final Dn dn;
        final boolean admin;
        /** The entry's {@code userPassword} values; null for the administrator. Set on the event loop before submit. */
        byte[][] stored;

        /** The entry's password policy and state; null when none governs it. */
        BindPolicy.Governed governed;

        /** Its place among its account's checks, once admitted; finished exactly once. */
        BindAdmission.Slot slot;

        /** The stored value the password matched; null until then. Set where the password was checked. */
        byte[] matched;

        /** The client key holding a place in {@link SuspectChecks}; null when none is held. Guarded by the attempt. */
        InetAddress suspect;

        /** A hash of the password in the configured scheme to store instead of {@link #matched}; null for none. */
        byte[] rehashed;

        final byte[] password;
        final InetAddress address;

        Attempt(Operation op, BindRequest request, Dn dn, boolean admin, byte[] password, InetAddress address) {
            this.op = op;
            this.request = request;
            this.dn = dn;
            this.admin = admin;
            this.password = password;
            this.address = address;
        }
    }
}
