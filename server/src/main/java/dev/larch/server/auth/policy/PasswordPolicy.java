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
 * @param minAge seconds after {@code pwdChangedTime} before a user may change the password again; 0 = any time
 * @param maxLength longest password accepted when quality is checked, in UTF-8 bytes (as OpenLDAP 2.6
 *     counts); 0 = any
 * @param minCharClasses Larch's {@code larchPwdMinCharClasses}: how many of the classes lower-case,
 *     upper-case, digit and other a new password must use when quality is checked; 0 = any
 * @param graceExpiry {@code pwdGraceExpiry}: seconds after expiry during which grace logins are
 *     allowed; 0 = no limit
 * @param minDelay {@code pwdMinDelay}: seconds a first failed bind is answered late; 0 = none
 * @param maxDelay {@code pwdMaxDelay}: the longest such delay; the delay doubles up to it
 * @param maxIdle {@code pwdMaxIdle}: seconds without a successful bind after which the account is
 *     refused as locked; 0 = never
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
        boolean safeModify,
        long minAge,
        int maxLength,
        int minCharClasses,
        long graceExpiry,
        long minDelay,
        long maxDelay,
        long maxIdle) {

    /**
     * What governs an entry no policy names, for the one rule that holds without a policy: a
     * {@code pwdAccountLockedTime} it carries locks it until an administrator removes it. Nothing is
     * counted, nothing expires, nothing is written.
     */
    public static final PasswordPolicy NONE = lockoutOnly(Dn.EMPTY_DN, 0, 0);

    /** Most failure times kept on an entry whatever the policy says, so a flood cannot grow an entry. */
    static final int MAX_RECORDED_FAILURES = 64;

    /** Most history values kept whatever the policy says. */
    static final int MAX_HISTORY = 64;

    /**
     * Longest failed-bind delay a policy may ask for ({@code pwdMinDelay}, {@code pwdMaxDelay}), in
     * seconds: the answer is held that long and the account's next check waits for it, so a larger
     * value would hold connections open for hours.
     */
    static final long MAX_DELAY_SECONDS = 3600;

    /** The character classes {@code larchPwdMinCharClasses} counts: lower, upper, digit, other. */
    static final int CHAR_CLASSES = 4;

    /**
     * A policy of lockout alone, as the administrator's in-memory one: {@code maxFailures} failed binds
     * lock for {@code lockoutSeconds} (0 = until removed); everything else takes the draft's default.
     */
    static PasswordPolicy lockoutOnly(Dn dn, int maxFailures, long lockoutSeconds) {
        return new PasswordPolicy(
                dn,
                0,
                0,
                0,
                0,
                0,
                0,
                maxFailures > 0,
                lockoutSeconds,
                maxFailures,
                0,
                false,
                true,
                false,
                0,
                0,
                0,
                0,
                0,
                0,
                0);
    }

    /**
     * {@code pwdGraceExpiry} by OID: the Apache LDAP API's bundled schema names it
     * {@code pwdGraceExpire}; Larch's schema adds OpenLDAP's name, and either finds it.
     */
    private static final String GRACE_EXPIRY = "1.3.6.1.4.1.42.2.27.8.1.30";

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
                bool(entry, "pwdSafeModify", false),
                number(entry, "pwdMinAge", 0, Long.MAX_VALUE / 1000),
                (int) number(entry, "pwdMaxLength", 0, Integer.MAX_VALUE),
                (int) number(entry, "larchPwdMinCharClasses", 0, CHAR_CLASSES),
                number(entry, GRACE_EXPIRY, 0, Long.MAX_VALUE / 1000),
                number(entry, "pwdMinDelay", 0, MAX_DELAY_SECONDS),
                number(entry, "pwdMaxDelay", 0, MAX_DELAY_SECONDS),
                number(entry, "pwdMaxIdle", 0, Long.MAX_VALUE / 1000));
    }

    /** Whether the entry carries the {@code pwdPolicy} object class. */
    public static boolean isPolicy(Entry entry) {
        return entry.hasObjectClass("pwdPolicy");
    }

    /** Whether this is {@link #NONE}: no policy entry governs. */
    boolean isNone() {
        return dn.isEmpty();
    }

    /** Whether failed binds are answered late by the policy's own delay. */
    boolean delaysFailures() {
        return minDelay > 0;
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
