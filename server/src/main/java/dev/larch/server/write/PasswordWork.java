package dev.larch.server.write;

import dev.larch.server.auth.IncomingPasswords;
import dev.larch.server.auth.policy.PasswordGuesses;
import dev.larch.server.error.FailureResults;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.protocol.Operation;
import dev.larch.server.work.WorkerPool;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponseRequest;

/**
 * Where writes that carry passwords hash them: on the {@link WorkerPool} (as binds verify), never on
 * an event loop nor on the single writer thread, which would stall every other write for the tens
 * of milliseconds a slow hash takes. A full pool answers busy, as a bind does.
 *
 * <p>Thread-safe.
 */
public final class PasswordWork {
    private final WorkerPool workers;
    private final IncomingPasswords passwords;
    private final PasswordGuesses guesses;

    public PasswordWork(WorkerPool workers, IncomingPasswords passwords) {
        this(workers, passwords, PasswordGuesses.NONE);
    }

    /** @param guesses counts wrong passwords presented in writes like failed binds */
    public PasswordWork(WorkerPool workers, IncomingPasswords passwords, PasswordGuesses guesses) {
        this.workers = workers;
        this.passwords = passwords;
        this.guesses = guesses;
    }

    IncomingPasswords passwords() {
        return passwords;
    }

    PasswordGuesses guesses() {
        return guesses;
    }

    /**
     * Runs {@code work} on a worker; any failure it throws becomes the operation's response.
     *
     * @throws ResultCodeException busy when the pool is full (on the caller's thread, before anything ran)
     */
    void run(Operation op, ResultResponseRequest request, Runnable work) {
        boolean admitted = workers.trySubmit(() -> {
            if (op.isAbandoned()) {
                return;
            }
            try {
                work.run();
            } catch (Throwable failure) {
                op.complete(FailureResults.fill(request.getResultResponse(), failure));
            }
        });
        if (!admitted) {
            throw new ResultCodeException(ResultCodeEnum.BUSY, "the server is busy; try again later");
        }
    }
}
