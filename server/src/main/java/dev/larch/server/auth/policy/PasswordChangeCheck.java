package dev.larch.server.auth.policy;

import dev.larch.server.protocol.Session;
import dev.larch.server.store.ReadTxn;
import org.apache.directory.api.ldap.model.entry.Entry;

/**
 * The seam every password-changing operation calls before it hashes and stores a new password:
 * modify of {@code userPassword} and Password Modify (RFC 3062).
 */
public interface PasswordChangeCheck {
    /**
     * Checks a new password against the policy governing {@code target} and says which policy state
     * the change brings. Call on the writer thread, in the transaction that will store the change.
     *
     * @param session who asks
     * @param target the entry as stored before the change (schema-aware)
     * @param newPassword the new password as the client sent it (cleartext, or a {@code {SCHEME}} value)
     * @param adminReset true when someone other than the entry's owner sets it (an administrator)
     * @param txn the transaction the change will be written in, for reading the policy
     * @return the state changes to apply to the entry with the new password; never null
     * @throws PolicyRefusal when the policy refuses the change
     */
    PasswordChangeEffects checkChange(
            Session session, Entry target, byte[] newPassword, boolean adminReset, ReadTxn txn);
}
