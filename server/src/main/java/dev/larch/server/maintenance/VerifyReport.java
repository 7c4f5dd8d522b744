package dev.larch.server.maintenance;

import java.util.ArrayList;
import java.util.List;

/**
 * What {@link StoreVerifier} found: how much it checked and each disagreement, the first {@link
 * #LISTED} in words and the rest counted, so a badly broken store cannot fill memory.
 *
 * <p>Not thread-safe: filled by one thread, then read; the reports of a verifier's threads are
 * added into one ({@link #addAll}).
 */
public final class VerifyReport {
    /** Disagreements described one by one; past this they are only counted. */
    public static final int LISTED = 100;

    private final List<String> listed = new ArrayList<>();
    private long problems;
    private long entries;
    private long indexRecords;
    private long changes;

    void problem(String what) {
        problems++;
        if (listed.size() < LISTED) {
            listed.add(what);
        }
    }

    /** Whether a problem reported now would be described, not only counted (naming it may cost a read). */
    boolean listing() {
        return listed.size() < LISTED;
    }

    /** Adds what {@code other} found: its problems after this one's, up to {@link #LISTED} described. */
    void addAll(VerifyReport other) {
        for (String what : other.listed) {
            if (listed.size() < LISTED) {
                listed.add(what);
            }
        }
        problems += other.problems;
        entries += other.entries;
        indexRecords += other.indexRecords;
        changes += other.changes;
    }

    void entryChecked() {
        entries++;
    }

    void changeChecked() {
        changes++;
    }

    void indexRecordsChecked(long n) {
        indexRecords += n;
    }

    /** Whether entries, their stamps, the DN tree, every index and the change log agree. */
    public boolean clean() {
        return problems == 0;
    }

    public long problems() {
        return problems;
    }

    /** The first {@link #LISTED} disagreements, in the order found. */
    public List<String> listed() {
        return List.copyOf(listed);
    }

    public long entries() {
        return entries;
    }

    public long indexRecords() {
        return indexRecords;
    }

    /** The change log records checked. */
    public long changes() {
        return changes;
    }
}
