package dev.larch.server.auth.policy;

import java.util.List;

import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.exception.LdapException;

/**
 * The policy state a password change writes alongside the new password (draft-behera section 7.2):
 * {@code pwdChangedTime}, {@code pwdHistory}, {@code pwdReset}; grace logins and failures start over.
 * Immutable.
 *
 * @param changedTime the new {@code pwdChangedTime} value
 * @param history the new {@code pwdHistory} values, oldest first; empty removes the attribute
 * @param reset whether {@code pwdReset: TRUE} is set (an administrator's reset under pwdMustChange)
 */
public record PasswordChangeEffects(String changedTime, List<byte[]> history, boolean reset) {
    /** A change no policy governs: nothing besides the password is written. */
    public static final PasswordChangeEffects NONE = new PasswordChangeEffects(null, List.of(), false);

    public PasswordChangeEffects {
        history = List.copyOf(history);
    }

    /** Writes the state into the changed entry (after the modifications were applied). */
    public void applyTo(Entry entry) {
        if (changedTime == null) {
            return;
        }
        entry.removeAttributes(
                PolicyAttributes.CHANGED_TIME,
                PolicyAttributes.HISTORY,
                PolicyAttributes.RESET,
                PolicyAttributes.GRACE_USE_TIME,
                PolicyAttributes.FAILURE_TIME);
        try {
            entry.add(PolicyAttributes.CHANGED_TIME, changedTime);
            if (!history.isEmpty()) {
                entry.add(PolicyAttributes.HISTORY, history.toArray(new byte[0][]));
            }
            if (reset) {
                entry.add(PolicyAttributes.RESET, "TRUE");
            }
        } catch (LdapException e) {
            throw new IllegalStateException("cannot write the password policy state", e);
        }
    }
}
