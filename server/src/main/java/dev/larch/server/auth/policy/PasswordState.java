package dev.larch.server.auth.policy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import org.apache.directory.api.ldap.model.entry.Attribute;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.entry.Value;
import org.apache.directory.api.ldap.model.schema.AttributeType;
import org.apache.directory.api.ldap.model.schema.SchemaManager;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * The password policy state an entry carries in its operational attributes (draft-behera section
 * 5.3). Immutable; lists are sorted oldest first.
 *
 * @param policySubentry the value of the pwdPolicySubentry attribute; null when absent
 * @param changedTime {@code pwdChangedTime}; null when absent
 * @param accountLockedTime the time in the pwdAccountLockedTime attribute; null when absent;
 *     {@link #LOCKED_UNTIL_REMOVED} for OpenLDAP's administrative lock {@code 000001010000Z} and for
 *     any value that is no time after 1970 (see {@link #isLockedUntilRemoved})
 * @param failureTimes {@code pwdFailureTime} values
 * @param graceUseTimes {@code pwdGraceUseTime} values
 * @param reset {@code pwdReset}
 * @param lastSuccess {@code pwdLastSuccess}, the last successful bind as recorded; null when absent
 * @param startTime {@code pwdStartTime}: binds before it are refused; null when absent;
 *     {@link Instant#MAX} for a value that is no time, so that the account stays closed
 * @param endTime {@code pwdEndTime}: binds from it on are refused; null when absent;
 *     {@link Instant#EPOCH} for a value that is no time, so that the account stays closed
 */
public record PasswordState(
        String policySubentry,
        Instant changedTime,
        Instant accountLockedTime,
        List<Instant> failureTimes,
        List<Instant> graceUseTimes,
        boolean reset,
        Instant lastSuccess,
        Instant startTime,
        Instant endTime) {

    /**
     * The lock time standing for "locked until an administrator removes the attribute", whatever the
     * policy's {@code pwdLockoutDuration}: slapd's ppolicy reads {@code 000001010000Z} as time 0 and
     * treats it so. A value that cannot be read as a time also stands for it, so that a lock never
     * fails open because of its form.
     */
    public static final Instant LOCKED_UNTIL_REMOVED = Instant.EPOCH;

    /** The attributes the state is read from, all of them. */
    static final List<String> ATTRIBUTES = List.of(
            PolicyAttributes.POLICY_SUBENTRY,
            PolicyAttributes.CHANGED_TIME,
            PolicyAttributes.ACCOUNT_LOCKED_TIME,
            PolicyAttributes.FAILURE_TIME,
            PolicyAttributes.GRACE_USE_TIME,
            PolicyAttributes.RESET,
            PolicyAttributes.LAST_SUCCESS,
            PolicyAttributes.START_TIME,
            PolicyAttributes.END_TIME);

    /** The state of an entry that carries none of {@link #ATTRIBUTES}. */
    private static final PasswordState NONE = new PasswordState(null, null, null, List.of(), List.of(), false);

    public PasswordState {
        failureTimes = List.copyOf(failureTimes);
        graceUseTimes = List.copyOf(graceUseTimes);
    }

    /** A state with no last bind and no validity window. */
    public PasswordState(
            String policySubentry,
            Instant changedTime,
            Instant accountLockedTime,
            List<Instant> failureTimes,
            List<Instant> graceUseTimes,
            boolean reset) {
        this(policySubentry, changedTime, accountLockedTime, failureTimes, graceUseTimes, reset, null, null, null);
    }

    /** This state with other failure times and lock; the rest as it is. */
    PasswordState withFailures(List<Instant> failures, Instant lockedTime) {
        return new PasswordState(
                policySubentry,
                changedTime,
                lockedTime,
                failures,
                graceUseTimes,
                reset,
                lastSuccess,
                startTime,
                endTime);
    }

    /** This state with {@code pwdLastSuccess} at {@code at}. */
    PasswordState withLastSuccess(Instant at) {
        return new PasswordState(
                policySubentry,
                changedTime,
                accountLockedTime,
                failureTimes,
                graceUseTimes,
                reset,
                at,
                startTime,
                endTime);
    }

    /** Whether the entry carries a validity window ({@code pwdStartTime} or {@code pwdEndTime}). */
    public boolean hasWindow() {
        return startTime != null || endTime != null;
    }

    /** Reads the state of a schema-aware entry; values that are not GeneralizedTime are ignored. */
    public static PasswordState of(Entry entry) {
        return of(name -> {
            Attribute attribute = entry.get(name);
            List<String> values = new ArrayList<>();
            if (attribute != null) {
                for (Value v : attribute) {
                    values.add(v.getString());
                }
            }
            return values;
        });
    }

    /**
     * Reads the state of a stored entry, as {@link #of(Entry)} reads its API form, without building
     * that: every bind reads the state, and turning the entry into an API entry for it was 43% of the
     * event loops' CPU under the authrate mix (JFR). An entry with none of {@link #ATTRIBUTES}, the
     * usual case, is told by one look at its attribute OIDs.
     */
    public static PasswordState of(StoredEntry entry, SchemaManager schema) {
        if (!StateAttributeOids.carriesAny(entry, schema)) {
            return NONE;
        }
        return of(name -> {
            AttributeType type = schema.getAttributeType(name);
            StoredAttribute attribute = type == null ? null : entry.attribute(type.getOid());
            List<String> values = new ArrayList<>();
            if (attribute != null) {
                for (byte[] value : attribute.values()) {
                    values.add(new String(value, UTF_8));
                }
            }
            return values;
        });
    }

    /** @param values an attribute's values by name, in the entry's order; empty when it has none */
    private static PasswordState of(Function<String, List<String>> values) {
        List<String> subentry = values.apply(PolicyAttributes.POLICY_SUBENTRY);
        List<String> reset = values.apply(PolicyAttributes.RESET);
        return new PasswordState(
                subentry.isEmpty() ? null : subentry.get(0),
                times(values, PolicyAttributes.CHANGED_TIME).stream()
                        .findFirst()
                        .orElse(null),
                lockedTime(values.apply(PolicyAttributes.ACCOUNT_LOCKED_TIME)),
                times(values, PolicyAttributes.FAILURE_TIME),
                times(values, PolicyAttributes.GRACE_USE_TIME),
                !reset.isEmpty() && "TRUE".equalsIgnoreCase(reset.get(0)),
                times(values, PolicyAttributes.LAST_SUCCESS).stream()
                        .reduce((a, b) -> b)
                        .orElse(null),
                windowTime(values.apply(PolicyAttributes.START_TIME), Instant.MAX),
                windowTime(values.apply(PolicyAttributes.END_TIME), Instant.EPOCH));
    }

    /** The first value as a time; {@code unreadable} when it is no time (a window fails closed); null when none. */
    private static Instant windowTime(List<String> values, Instant unreadable) {
        if (values.isEmpty()) {
            return null;
        }
        return GeneralizedTimes.parse(values.get(0)).orElse(unreadable);
    }

    /** Whether the account carries the administrative lock, which no duration ends. */
    public boolean isLockedUntilRemoved() {
        return accountLockedTime != null && !accountLockedTime.isAfter(LOCKED_UNTIL_REMOVED);
    }

    private static Instant lockedTime(List<String> values) {
        if (values.isEmpty()) {
            return null;
        }
        Optional<Instant> time = GeneralizedTimes.parse(values.get(0));
        return time.isPresent() && time.get().isAfter(LOCKED_UNTIL_REMOVED) ? time.get() : LOCKED_UNTIL_REMOVED;
    }

    private static List<Instant> times(Function<String, List<String>> values, String name) {
        List<Instant> times = new ArrayList<>();
        for (String v : values.apply(name)) {
            Optional<Instant> t = GeneralizedTimes.parse(v);
            t.ifPresent(times::add);
        }
        times.sort(Comparator.naturalOrder());
        return times;
    }
}
