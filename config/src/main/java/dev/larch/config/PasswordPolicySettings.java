package dev.larch.config;

import java.util.Objects;

/**
 * Password policy settings (draft-behera-ldap-password-policy).
 *
 * @param defaultPolicyDn the DN of the {@code pwdPolicy} entry that governs every entry without its
 *     own {@code pwdPolicySubentry}; empty when there is no default policy (then only entries naming
 *     a policy are governed). Never null. Not checked at start: a DN naming no entry, or an entry
 *     that is not a {@code pwdPolicy}, governs nothing, and the server logs it once.
 */
public record PasswordPolicySettings(String defaultPolicyDn) {
    public PasswordPolicySettings {
        Objects.requireNonNull(defaultPolicyDn, "defaultPolicyDn");
        defaultPolicyDn = defaultPolicyDn.strip();
    }

    /** Whether a default policy is named. */
    public boolean hasDefaultPolicy() {
        return !defaultPolicyDn.isEmpty();
    }
}
