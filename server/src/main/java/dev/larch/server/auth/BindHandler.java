package dev.larch.server.auth;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.error.FailureResults;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.protocol.Operation;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.work.WorkerPool;
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
 * Unknown DNs, entries without a password and wrong passwords get the same answer after the same
 * work: a DN without a password is checked against a decoy hash of the configured scheme. Failures
 * are answered after the growing delay of {@link FailedBindDelays}, scheduled on the event loop; no
 * thread sleeps.
 */
public final class BindHandler {
    private static final Logger LOG = LoggerFactory.getLogger(BindHandler.class);
    /** DNs already warned about an over-costly hash; bounded so that warnings cannot grow memory. */
    private static final int MAX_WARNED = 1024;

    private final Directory directory;
    private final Credentials credentials;
    private final WorkerPool workers;
    private final FailedBindDelays delays;
    private final LruMap<String, Boolean> warnedTooCostly = new LruMap<>(MAX_WARNED);

    public BindHandler(Directory directory, Credentials credentials, WorkerPool workers, FailedBindDelays delays) {
        this.directory = directory;
        this.credentials = credentials;
        this.workers = workers;
        this.delays = delays;
    }

    /** Called on the connection's event loop. */
    public void handle(Operation op, BindRequest request) {
        op.session().bound(Dn.EMPTY_DN, false);
        if (!request.getVersion3()) {
            throw new ResultCodeException(ResultCodeEnum.PROTOCOL_ERROR, "only LDAP version 3 is supported");
        }
        if (!request.isSimple()) {
            throw new ResultCodeException(
                    ResultCodeEnum.AUTH_METHOD_NOT_SUPPORTED, "SASL authentication is not supported");
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
        boolean admin = dn.equals(credentials.adminDn());
        Attempt attempt =
                new Attempt(op, request, dn, admin, admin ? null : storedPasswords(dn), password, addressOf(op));
        long wait = delays.nanosBeforeAttempt(dn, attempt.address);
        if (wait > 0) {
            op.executor().schedule(() -> submit(attempt), wait, TimeUnit.NANOSECONDS);
        } else {
            submit(attempt);
        }
    }

    /** The {@code userPassword} values of {@code dn}, copied out of the transaction; empty when none. */
    private byte[][] storedPasswords(Dn dn) {
        try (ReadTxn txn = directory.store().read()) {
            long id = directory.resolve(txn, dn);
            StoredEntry entry = id == ReadTxn.NOT_FOUND ? null : directory.load(txn, id);
            StoredAttribute stored = entry == null ? null : entry.attribute(AccessPolicy.USER_PASSWORD_OID);
            if (stored == null) {
                return new byte[0][];
            }
            byte[][] values = new byte[stored.size()][];
            for (int i = 0; i < values.length; i++) {
                values[i] = stored.values()[i].clone();
            }
            return values;
        }
    }

    private void submit(Attempt attempt) {
        if (attempt.op.isAbandoned()) {
            return;
        }
        if (!workers.trySubmit(() -> verify(attempt))) {
            complete(attempt.op, attempt.request, ResultCodeEnum.BUSY, "the server is busy; try the bind again later");
        }
    }

    /** On a worker thread: hashes, then answers through the event loop. */
    private void verify(Attempt attempt) {
        if (attempt.op.isAbandoned()) {
            return;
        }
        PasswordCheck outcome;
        try {
            outcome = check(attempt);
        } catch (RuntimeException e) {
            attempt.op.complete(FailureResults.fill(attempt.request.getResultResponse(), e));
            return;
        }
        if (outcome == PasswordCheck.MATCH) {
            onEventLoop(attempt.op, () -> succeed(attempt), 0);
            return;
        }
        if (outcome == PasswordCheck.TOO_COSTLY) {
            warnTooCostly(attempt.dn);
        }
        long delay = delays.failed(attempt.dn, attempt.address);
        onEventLoop(
                attempt.op,
                () -> complete(attempt.op, attempt.request, ResultCodeEnum.INVALID_CREDENTIALS, "invalid credentials"),
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
            return;
        }
        attempt.op.session().bound(attempt.dn, attempt.admin);
        delays.succeeded(attempt.dn);
        complete(attempt.op, attempt.request, ResultCodeEnum.SUCCESS, "");
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
        ResultResponse response = request.getResultResponse();
        response.getLdapResult().setResultCode(code);
        if (!message.isEmpty()) {
            response.getLdapResult().setDiagnosticMessage(message);
        }
        op.complete(response);
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
        /** The entry's {@code userPassword} values; null for the administrator. */
        final byte[][] stored;

        final byte[] password;
        final InetAddress address;

        Attempt(
                Operation op,
                BindRequest request,
                Dn dn,
                boolean admin,
                byte[][] stored,
                byte[] password,
                InetAddress address) {
            this.op = op;
            this.request = request;
            this.dn = dn;
            this.admin = admin;
            this.stored = stored;
            this.password = password;
            this.address = address;
        }
    }
}
