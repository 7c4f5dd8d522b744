package dev.larch.server.auth.policy;

import dev.larch.server.entry.StoredEntry;
import dev.larch.server.store.ReadTxn;

/**
 * Counts the wrong passwords presented outside binds like failed binds: the old password of a
 * Password Modify and a {@code userPassword} value deleted by its cleartext in a Modify are password
 * checks too, and without counting they would be oracles that bypass the lockout. A wrong one counts
 * towards the entry's lockout (the same in-memory admission record and stored
 * {@code pwdFailureTime} as binds); while the account is locked, such a check is refused as a
 * mismatch without hashing, right password or not.
 *
 * <p>Thread-safe. A guess is not serialized with the account's other checks as a bind is: guesses
 * sent in parallel are each counted, but those already checking when the lock falls are not stopped.
 */
public final class PasswordGuesses {
    /** Counts nothing: for servers without password policy (tools, tests). */
    public static final PasswordGuesses NONE = new PasswordGuesses(null, null);

    private final BindAdmission admission;
    private final BindPolicy policy;

    /**
     * @param admission the bind admission whose per-account records count the failures
     * @param policy the policy's part in binds, which writes the stored state
     */
    public PasswordGuesses(BindAdmission admission, BindPolicy policy) {
        this.admission = admission;
        this.policy = policy;
    }

    /** Begins a guess at the password of {@code entry}, read in {@code txn}. */
    public Guess begin(ReadTxn txn, StoredEntry entry) {
        BindPolicy.Governed governed = policy == null ? null : policy.read(txn, entry);
        return new Guess(governed);
    }

    /** One presented password, checked against one entry's stored values. */
    public final class Guess {
        private final BindPolicy.Governed governed;

        private Guess(BindPolicy.Governed governed) {
            this.governed = governed;
        }

        /** Whether the account is locked now: then the check is refused as a mismatch, unhashed. */
        public boolean locked() {
            return governed != null && admission.lockedNow(governed.dn.getNormName(), governed);
        }

        /** The presented password matched nothing: counts a failure, as a failed bind does. */
        public void failed() {
            if (governed != null) {
                admission.failedOutsideBind(governed.dn.getNormName(), governed);
                policy.failed(governed);
            }
        }
    }
}
