package dev.larch.server.auth.policy;

import java.util.ArrayList;
import java.util.List;

import dev.larch.server.auth.PasswordAttributes;
import dev.larch.server.auth.PasswordCheck;
import dev.larch.server.auth.PasswordSchemes;
import dev.larch.server.directory.SchemaNormalizer;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.protocol.Session;
import dev.larch.server.store.ReadTxn;
import org.apache.directory.api.ldap.extras.controls.ppolicy.PasswordPolicyErrorEnum;
import org.apache.directory.api.ldap.model.entry.Attribute;
import org.apache.directory.api.ldap.model.entry.DefaultAttribute;
import org.apache.directory.api.ldap.model.entry.DefaultModification;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.entry.Modification;
import org.apache.directory.api.ldap.model.entry.ModificationOperation;
import org.apache.directory.api.ldap.model.entry.Value;
import org.apache.directory.api.ldap.model.exception.LdapInvalidAttributeValueException;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.name.Dn;
import org.apache.directory.api.ldap.model.schema.AttributeType;

/**
 * A modify request's changes to {@code userPassword}, seen by the password policy.
 *
 * <p>A user changing their own password (the only write a non-administrator may make) gives exactly
 * one new value, and, when the policy sets {@code pwdSafeModify}, the old one as a deleted value in
 * the same request ({@code delete: userPassword / userPassword: old / add: userPassword /
 * userPassword: new}). The old value is checked against the stored one, hashed or not, and the
 * change becomes one replace. An administrator's change is applied as sent and counts as a reset.
 * Either way the {@link PasswordPolicyEnforcer} is asked first. Thread-safe.
 */
public final class PasswordModifications {
    private final SchemaNormalizer schemaNormalizer;
    private final PasswordPolicyEnforcer enforcer;
    private final PolicyResolver resolver;
    private final int maxIterations;

    public PasswordModifications(
            SchemaNormalizer schemaNormalizer,
            PasswordPolicyEnforcer enforcer,
            PolicyResolver resolver,
            int maxIterations) {
        this.schemaNormalizer = schemaNormalizer;
        this.enforcer = enforcer;
        this.resolver = resolver;
        this.maxIterations = maxIterations;
    }

    /**
     * Whether a non-administrator asks to change nothing but their own {@code userPassword} (what
     * every user may do; access control decides everything else).
     */
    public boolean isSelfChange(Session session, Dn target, List<Modification> modifications) {
        if (session.isAdmin() || session.isAnonymous() || !session.boundDn().equals(target)) {
            return false;
        }
        for (Modification mod : modifications) {
            if (!isUserPassword(mod)) {
                return false;
            }
        }
        return !modifications.isEmpty();
    }

    /**
     * Checks the request's password changes against {@code before}'s policy, in the write transaction.
     *
     * @throws PolicyRefusal when the policy refuses the change
     * @throws ResultCodeException when a self-change is malformed or names a wrong old password
     */
    public Checked check(Session session, Entry before, List<Modification> modifications, ReadTxn txn) {
        List<byte[]> added = new ArrayList<>();
        List<byte[]> deleted = new ArrayList<>();
        boolean touches = false;
        for (Modification mod : modifications) {
            if (!isUserPassword(mod)) {
                continue;
            }
            touches = true;
            List<byte[]> into = mod.getOperation() == ModificationOperation.REMOVE_ATTRIBUTE ? deleted : added;
            for (Value v : mod.getAttribute()) {
                into.add(v.getBytes());
            }
        }
        if (!touches) {
            return new Checked(modifications, PasswordChangeEffects.NONE, false);
        }
        if (!isSelfChange(session, before.getDn(), modifications)) {
            PasswordChangeEffects effects = added.size() == 1
                    ? enforcer.checkChange(session, before, added.get(0), true, txn)
                    : PasswordChangeEffects.NONE;
            return new Checked(modifications, effects, false);
        }
        if (added.size() != 1) {
            throw new ResultCodeException(
                    ResultCodeEnum.CONSTRAINT_VIOLATION, "userPassword: give exactly one new password");
        }
        if (deleted.isEmpty() && requiresOldPassword(before, txn)) {
            throw new PolicyRefusal(
                    ResultCodeEnum.CONSTRAINT_VIOLATION,
                    PasswordPolicyErrorEnum.MUST_SUPPLY_OLD_PASSWORD,
                    "the password policy needs the old password: delete it and add the new one in the same modify");
        }
        for (byte[] old : deleted) {
            if (!matchesStored(before, old)) {
                throw new ResultCodeException(
                        ResultCodeEnum.NO_SUCH_ATTRIBUTE, "userPassword: the old password does not match");
            }
        }
        PasswordChangeEffects effects = enforcer.checkChange(session, before, added.get(0), false, txn);
        AttributeType type = schemaNormalizer.type("userPassword");
        Attribute replacement;
        try {
            replacement = new DefaultAttribute(type, added.get(0));
        } catch (LdapInvalidAttributeValueException e) {
            throw new ResultCodeException(ResultCodeEnum.INVALID_ATTRIBUTE_SYNTAX, "userPassword: invalid value");
        }
        return new Checked(
                List.of(new DefaultModification(ModificationOperation.REPLACE_ATTRIBUTE, replacement)), effects, true);
    }

    /**
     * The policy state a new entry with a password starts with: {@code pwdChangedTime}, from which
     * {@code pwdMaxAge} counts. The administrator's adds skip the quality and history checks and keep
     * the {@code pwdReset} the administrator gave (set it to make the user change the first password).
     */
    public PasswordChangeEffects onAdd(Session session, Entry added, ReadTxn txn) {
        Attribute password = added.get("userPassword");
        if (password == null || password.size() != 1) {
            return PasswordChangeEffects.NONE;
        }
        Entry withoutPassword = added.clone();
        withoutPassword.removeAttributes("userPassword");
        PasswordChangeEffects effects =
                enforcer.checkChange(session, withoutPassword, password.get().getBytes(), true, txn);
        return effects.changedTime() == null
                ? effects
                : new PasswordChangeEffects(
                        effects.changedTime(),
                        List.of(),
                        PasswordState.of(added).reset());
    }

    /**
     * Checks one new cleartext password for {@code before} (Password Modify): quality, history and
     * {@code pwdAllowUserChange}, and says which policy state the change brings.
     *
     * @throws PolicyRefusal when the policy refuses the change
     */
    public PasswordChangeEffects checkNewPassword(
            Session session, Entry before, byte[] newPassword, boolean adminReset, ReadTxn txn) {
        return enforcer.checkChange(session, before, newPassword, adminReset, txn);
    }

    /** Whether the policy governing {@code before} says a change must name the old password ({@code pwdSafeModify}). */
    public boolean requiresOldPassword(Entry before, ReadTxn txn) {
        return resolver.governing(txn, PasswordState.of(before))
                .map(PasswordPolicy::safeModify)
                .orElse(false);
    }

    private boolean matchesStored(Entry before, byte[] old) {
        Attribute stored = before.get("userPassword");
        if (stored == null) {
            return false;
        }
        for (Value v : stored) {
            if (PasswordSchemes.check(v.getBytes(), old, true, maxIterations) == PasswordCheck.MATCH) {
                return true;
            }
        }
        return false;
    }

    private boolean isUserPassword(Modification mod) {
        AttributeType type = schemaNormalizer.typeOrNull(mod.getAttribute().getUpId());
        return type != null && PasswordAttributes.USER_PASSWORD_OID.equals(type.getOid());
    }

    /**
     * The outcome of {@link #check}.
     *
     * @param modifications what to apply: the request's own, or one replace for a self-change
     * @param effects the policy state to write after applying them
     * @param selfChange whether the bound user changed their own password
     */
    public record Checked(List<Modification> modifications, PasswordChangeEffects effects, boolean selfChange) {}
}
