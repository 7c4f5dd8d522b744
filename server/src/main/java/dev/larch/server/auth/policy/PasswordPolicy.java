package dev.larch.server.auth.policy;

import org.apache.directory.api.ldap.model.entry.Attribute;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.name.Dn;

/**
 * One password policy, as a {@code pwdPolicy} entry states it (draft-behera-ldap-password-policy
 * section 5.2). An attribute the entry lacks takes the draft's default; durations are in seconds.
 * Immutable.
 *
 * @param dn the policy entry
 * @param maxAge seconds a password stays valid after it was changed; 0 = forever
 * @param inHistory how many former passwords may not be used again; 0 = no history
 * @param checkQuality 0 = no check, 1 = check what can be checked, 2 = refuse what cannot be
 * @param minLength shortest password accepted when quality is checked; 0 = any
 * @param expireWarning seconds before expiry from which a bind is warned; 0 = no warning
 * @param graceAuthNLimit binds allowed with an expired password; 0 = none
 * @param lockout whether failed binds lock the account
 * @param lockoutDuration seconds a lock lasts; 0 = until an administrator removes it
 * @param maxFailure consecutive failures that lock; 0 = never locks
 * @param failureCountInterval seconds after which a failure is forgotten; 0 = kept until a success
 * @param mustChange whether a password set by an administrator must be changed before anything else
 * @param allowUserChange whether users may change their own password
 * @param safeModify whether a user's change must name the old password
 */
public record PasswordPolicy(
        Dn dn,
        long maxAge,
        int inHistory,
        int checkQuality,
        int minLength,
        long expireWarning,
        int graceAuthNLimit,
        boolean lockout,
        long lockoutDuration,
        int maxFailure,
        long failureCountInterval,
        boolean mustChange,
        boolean allowUserChange,
        boolean safeModify) {

    /**
     * What governs an entry no policy names, for the one rule that holds without a policy: a
     * {@code pwdAccountLockedTime} it carries locks it until an administrator removes it. Nothing is
     * counted, nothing expires, nothing is written.
     */
    public static final PasswordPolicy NONE =
            new PasswordPolicy(Dn.EMPTY_DN, 0, 0, 0, 0, 0, 0, false, 0, 0, 0, false, true, false);

    /** Most failure times kept on an entry whatever the policy says, so a flood cannot grow an entry. */
    static final int MAX_RECORDED_FAILURES = 64;

    /** Most history values kept whatever the policy says. */
    static final int MAX_HISTORY = 64;

    /** Reads a policy entry; values that are missing, not numbers or out of range take the draft's defaults. */
    public static PasswordPolicy from(Entry entry) {
        return new PasswordPolicy(
                entry.getDn(),
                number(entry, "pwdMaxAge", 0, Long.MAX_VALUE / 1000),
                (int) number(entry, "pwdInHistory", 0, MAX_HISTORY),
                (int) number(entry, "pwdCheckQuality", 0, 2),
                (int) number(entry, "pwdMinLength", 0, Integer.MAX_VALUE),
                number(entry, "pwdExpireWarning", 0, Long.MAX_VALUE / 1000),
                (int) number(entry, "pwdGraceAuthNLimit", 0, Integer.MAX_VALUE),
                bool(entry, "pwdLockout", false),
                number(entry, "pwdLockoutDuration", 0, Long.MAX_VALUE / 1000),
                (int) number(entry, "pwdMaxFailure", 0, MAX_RECORDED_FAILURES),
                number(entry, "pwdFailureCountInterval", 0, Long.MAX_VALUE / 1000),
                bool(entry, "pwdMustChange", false),
                bool(entry, "pwdAllowUserChange", true),
                bool(entry, "pwdSafeModify", false));
    }

    /** Whether the entry carries the {@code pwdPolicy} object class. */
    public static boolean isPolicy(Entry entry) {
        return entry.hasObjectClass("pwdPolicy");
    }

    /** Whether this is {@link #NONE}: no policy entry governs. */
    boolean isNone() {
        return dn.isEmpty();
    }

    /** Whether failed binds are counted at all. */
    boolean countsFailures() {
        return lockout && maxFailure > 0;
    }

    private static long number(Entry entry, String name, long min, long max) {
        return number(entry, name, 0, min, max);
    }

    private static long number(Entry entry, String name, long absent, long min, long max) {
        Attribute attribute = entry.get(name);
        if (attribute == null || attribute.get() == null) {
            return absent;
        }
        try {
            long value = Long.parseLong(attribute.get().getString().trim());
            return Math.max(min, Math.min(max, value));
        } catch (NumberFormatException e) {
            return absent;
        }
    }

    private static boolean bool(Entry entry, String name, boolean absent) {
        Attribute attribute = entry.get(name);
        if (attribute == null || attribute.get() == null) {
            return absent;
        }
        return "TRUE".equalsIgnoreCase(attribute.get().getString().trim());
    }
}
