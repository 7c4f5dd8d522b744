package dev.larch.server.auth.policy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import org.apache.directory.api.ldap.model.entry.Attribute;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.entry.Value;

/**
 * The password policy state an entry carries in its operational attributes (draft-behera section
 * 5.3). Immutable; lists are sorted oldest first.
 *
 * @param policySubentry the value of the pwdPolicySubentry attribute; null when absent
 * @param changedTime {@code pwdChangedTime}; null when absent
 * @param accountLockedTime the time in the pwdAccountLockedTime attribute; null when absent
 * @param failureTimes {@code pwdFailureTime} values
 * @param graceUseTimes {@code pwdGraceUseTime} values
 * @param reset {@code pwdReset}
 */
public record PasswordState(
        String policySubentry,
        Instant changedTime,
        Instant accountLockedTime,
        List<Instant> failureTimes,
        List<Instant> graceUseTimes,
        boolean reset) {

    public PasswordState {
        failureTimes = List.copyOf(failureTimes);
        graceUseTimes = List.copyOf(graceUseTimes);
    }

    /** Reads the state of a schema-aware entry; values that are not GeneralizedTime are ignored. */
    public static PasswordState of(Entry entry) {
        Attribute subentry = entry.get(PolicyAttributes.POLICY_SUBENTRY);
        Attribute reset = entry.get(PolicyAttributes.RESET);
        return new PasswordState(
                subentry == null || subentry.get() == null
                        ? null
                        : subentry.get().getString(),
                times(entry, PolicyAttributes.CHANGED_TIME).stream().findFirst().orElse(null),
                times(entry, PolicyAttributes.ACCOUNT_LOCKED_TIME).stream()
                        .findFirst()
                        .orElse(null),
                times(entry, PolicyAttributes.FAILURE_TIME),
                times(entry, PolicyAttributes.GRACE_USE_TIME),
                reset != null
                        && reset.get() != null
                        && "TRUE".equalsIgnoreCase(reset.get().getString()));
    }

    private static List<Instant> times(Entry entry, String name) {
        Attribute attribute = entry.get(name);
        List<Instant> times = new ArrayList<>();
        if (attribute != null) {
            for (Value v : attribute) {
                Optional<Instant> t = GeneralizedTimes.parse(v.getString());
                t.ifPresent(times::add);
            }
        }
        times.sort(Comparator.naturalOrder());
        return times;
    }
}
