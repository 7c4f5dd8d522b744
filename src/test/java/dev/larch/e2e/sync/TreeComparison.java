package dev.larch.e2e.sync;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;

/**
 * Compares the subtree under a base DN on two servers entry by entry, as {@link ComparedEntry}
 * defines equality (user attributes and the replicated operational stamps; DNs normalized). Each
 * comparison reads both whole trees as each server's {@link LdapEndpoint#bindDn()}; a difference is
 * described by re-reading the first few differing entries from both sides.
 */
public final class TreeComparison {
    /** How many entries of each kind of difference a report names. */
    static final int NAMED = 5;

    static final Duration POLL = Duration.ofMillis(500);

    private final LdapEndpoint expected;
    private final LdapEndpoint actual;
    private final String baseDn;

    /** {@code expected} is the provider, {@code actual} the replica that should equal it. */
    public TreeComparison(LdapEndpoint expected, LdapEndpoint actual, String baseDn) {
        this.expected = expected;
        this.actual = actual;
        this.baseDn = baseDn;
    }

    /** Compares the trees under {@link SlapdConfig#SUFFIX}. */
    public TreeComparison(LdapEndpoint expected, LdapEndpoint actual) {
        this(expected, actual, SlapdConfig.SUFFIX);
    }

    /**
     * Reads both trees once. Empty if they are equal; otherwise a report naming the entries only one
     * side has and, for the first differing entries, each differing attribute with both sides' values.
     */
    public Optional<String> difference() throws LDAPException {
        TreeSnapshot want = TreeSnapshot.read(expected, baseDn);
        TreeSnapshot got = TreeSnapshot.read(actual, baseDn);
        List<String> missing = new ArrayList<>();
        List<String> extra = new ArrayList<>();
        List<String> changed = new ArrayList<>();
        TreeSet<String> all = new TreeSet<>(want.digests().keySet());
        all.addAll(got.digests().keySet());
        for (String dn : all) {
            if (!got.digests().containsKey(dn)) {
                missing.add(dn);
            } else if (!want.digests().containsKey(dn)) {
                extra.add(dn);
            } else if (!want.sameEntry(dn, got)) {
                changed.add(dn);
            }
        }
        if (missing.isEmpty() && extra.isEmpty() && changed.isEmpty()) {
            return Optional.empty();
        }
        StringBuilder report = new StringBuilder()
                .append(actual.name())
                .append(" differs from ")
                .append(expected.name())
                .append(" (")
                .append(want.digests().size())
                .append(" entries against ")
                .append(got.digests().size())
                .append(")");
        named(report, "missing", missing);
        named(report, "extra", extra);
        report.append("\n  differing entries: ").append(changed.size());
        for (String dn : changed.subList(0, Math.min(NAMED, changed.size()))) {
            report.append("\n    ").append(dn);
            for (String attribute : describe(dn)) {
                report.append("\n      ").append(attribute);
            }
        }
        return Optional.of(report.toString());
    }

    /**
     * Polls until the trees are equal: entry counts first (cheap while a refresh is far from
     * done), then {@link #difference()}. Returns how long it took. Throws {@link AssertionError}
     * with the last difference (or the last failure to read a tree) when {@code timeout} passes
     * first.
     */
    public Duration awaitConverged(Duration timeout) throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        String last = "no comparison finished";
        do {
            try {
                int want = TreeSnapshot.count(expected, baseDn);
                int got = TreeSnapshot.count(actual, baseDn);
                if (want != got) {
                    last = actual.name() + " holds " + got + " entries, " + expected.name() + " " + want;
                } else {
                    Optional<String> difference = difference();
                    if (difference.isEmpty()) {
                        return Duration.ofNanos(System.nanoTime() - start);
                    }
                    last = difference.get();
                }
            } catch (LDAPException e) {
                // A consumer restarting may refuse connections for a moment.
                last = "reading the trees failed: " + e;
            }
            Thread.sleep(POLL.toMillis());
        } while (System.nanoTime() < deadline);
        throw new AssertionError("not converged within " + timeout + ": " + finalReport(last));
    }

    /** The full difference if it can still be read, else {@code last}. */
    private String finalReport(String last) {
        try {
            return difference().orElse("equal on the final reading (converged just after the deadline)");
        } catch (LDAPException e) {
            return last;
        }
    }

    private static void named(StringBuilder report, String what, List<String> dns) {
        report.append("\n  ").append(what).append(" entries: ").append(dns.size());
        for (String dn : dns.subList(0, Math.min(NAMED, dns.size()))) {
            report.append("\n    ").append(dn);
        }
    }

    /** The attributes on which the entry {@code dn} differs, read again from both sides. */
    private List<String> describe(String dn) throws LDAPException {
        ComparedEntry want = entry(expected, dn);
        ComparedEntry got = entry(actual, dn);
        if (want == null || got == null) {
            return List.of("(gone from " + (want == null ? expected.name() : actual.name()) + " on re-reading)");
        }
        List<String> differences = want.differences(got);
        return differences.isEmpty() ? List.of("(equal on re-reading: still changing)") : differences;
    }

    private static ComparedEntry entry(LdapEndpoint server, String dn) throws LDAPException {
        try (LDAPConnection c = server.connect()) {
            Entry entry = c.getEntry(dn, "*", "+");
            return entry == null ? null : ComparedEntry.of(entry);
        }
    }
}
