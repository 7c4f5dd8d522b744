package dev.larch.bench.run;

import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;

/**
 * The entries one worker has added and not yet deleted, oldest first. Only the owner deletes or
 * renames them, so workers never collide; an entry is owned once its add succeeded and leaves
 * when a delete or rename of it is built (a failed one gives it back).
 *
 * <p>Thread-safe: with asynchronous sends, answers arrive on SDK threads.
 */
final class OwnEntries {
    private final Deque<String> dns = new ConcurrentLinkedDeque<>();

    void added(String dn) {
        dns.addLast(dn);
    }

    /** The oldest own entry, now taken out; null when there is none. */
    String takeOldest() {
        return dns.pollFirst();
    }

    /** Puts back an entry whose delete or rename failed, so it is tried first next time. */
    void giveBack(String dn) {
        dns.addFirst(dn);
    }

    int size() {
        return dns.size();
    }

    /**
     * Deletes every entry still owned, so the next run starts from the data set's size; returns how
     * many were deleted. Failures are skipped: cleaning up must not fail a finished run.
     */
    int deleteAll(LDAPConnection connection) {
        List<String> left = new ArrayList<>();
        for (String dn = dns.pollFirst(); dn != null; dn = dns.pollFirst()) {
            left.add(dn);
        }
        int deleted = 0;
        for (String dn : left) {
            try {
                connection.delete(dn);
                deleted++;
            } catch (LDAPException e) {
                // counted as not deleted; the entry stays, as it would after a crash
            }
        }
        return deleted;
    }
}
