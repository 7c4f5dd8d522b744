package dev.larch.server.csn;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * A set of CSNs with at most one per server ID, the highest seen: a {@code contextCSN} (the state of a
 * replica) or the {@code csn=} part of a sync cookie (the state a consumer has reached). Kept in server
 * ID order, which is the order slapd sorts and writes them in.
 *
 * <p>At most {@value #MAX_SIZE} CSNs, one per possible server ID; parsing refuses a text with more
 * values than that before reading them. Immutable and thread-safe.
 */
public final class CsnVector {

    /** The most CSNs a vector holds: one per server ID 0–4095. */
    public static final int MAX_SIZE = Csn.MAX_SID + 1;

    public static final CsnVector EMPTY = new CsnVector(new Csn[0]);

    /** In ascending server ID order, one per server ID. */
    private final Csn[] csns;

    private CsnVector(Csn[] csns) {
        this.csns = csns;
    }

    /** The vector of {@code csns}, keeping the highest of each server ID. */
    public static CsnVector of(Collection<Csn> csns) {
        TreeMap<Integer, Csn> bySid = new TreeMap<>();
        for (Csn csn : csns) {
            bySid.merge(csn.sid(), csn, (a, b) -> b.isAfter(a) ? b : a);
        }
        return bySid.isEmpty() ? EMPTY : new CsnVector(bySid.values().toArray(new Csn[0]));
    }

    /** The vector of {@code csns}, keeping the highest of each server ID. */
    public static CsnVector of(Csn... csns) {
        return of(Arrays.asList(csns));
    }

    /**
     * Parses CSNs separated by {@code ;} (the {@code csn=} value of a cookie), keeping the highest of each
     * server ID. An empty text is the empty vector.
     *
     * @throws IllegalArgumentException when a value is not a CSN or there are more than
     *     {@value #MAX_SIZE} values
     */
    public static CsnVector parse(String text) {
        if (text.isEmpty()) {
            return EMPTY;
        }
        // Counted before splitting: the text's length is the caller's bound, the count is ours.
        long values = text.chars().filter(c -> c == ';').count() + 1;
        if (values > MAX_SIZE) {
            throw new IllegalArgumentException("a CSN set holds at most " + MAX_SIZE + " CSNs, this one " + values);
        }
        List<Csn> parsed = new ArrayList<>((int) values);
        for (String value : text.split(";", -1)) {
            parsed.add(Csn.parse(value));
        }
        return of(parsed);
    }

    /** This vector with {@code csn} in it, unless it already holds a CSN of that server ID as high. */
    public CsnVector with(Csn csn) {
        int at = indexOf(csn.sid());
        if (at >= 0) {
            if (!csn.isAfter(csns[at])) {
                return this;
            }
            Csn[] next = csns.clone();
            next[at] = csn;
            return new CsnVector(next);
        }
        int insert = -at - 1;
        Csn[] next = new Csn[csns.length + 1];
        System.arraycopy(csns, 0, next, 0, insert);
        next[insert] = csn;
        System.arraycopy(csns, insert, next, insert + 1, csns.length - insert);
        return new CsnVector(next);
    }

    /** The highest CSN of each server ID in either vector. */
    public CsnVector merge(CsnVector other) {
        List<Csn> all = new ArrayList<>(csns.length + other.csns.length);
        all.addAll(Arrays.asList(csns));
        all.addAll(Arrays.asList(other.csns));
        return of(all);
    }

    /** The CSN of server {@code sid}; null when there is none. */
    public Csn get(int sid) {
        int at = indexOf(sid);
        return at >= 0 ? csns[at] : null;
    }

    /** The CSNs in server ID order. */
    public List<Csn> csns() {
        return Collections.unmodifiableList(Arrays.asList(csns));
    }

    /** The highest CSN of all; null when empty. */
    public Csn max() {
        Csn max = null;
        for (Csn csn : csns) {
            if (max == null || csn.isAfter(max)) {
                max = csn;
            }
        }
        return max;
    }

    public boolean isEmpty() {
        return csns.length == 0;
    }

    public int size() {
        return csns.length;
    }

    /**
     * Whether every CSN of this vector is at or below the CSN of its server ID in {@code other}, a server
     * ID {@code other} lacks counting as not covered: a cookie covered by the context has seen nothing
     * the provider has not (no cookie from the future).
     */
    public boolean isCoveredBy(CsnVector other) {
        for (Csn csn : csns) {
            Csn theirs = other.get(csn.sid());
            if (theirs == null || csn.isAfter(theirs)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether {@code other} holds a CSN newer than this vector's for its server ID (or of a server ID this
     * vector lacks): there are changes this state has not seen.
     */
    public boolean isBehind(CsnVector other) {
        return !other.isCoveredBy(this);
    }

    /** The CSNs in server ID order separated by {@code ;}, as slapd writes a cookie's {@code csn=}. */
    public String format() {
        StringJoiner joined = new StringJoiner(";");
        for (Csn csn : csns) {
            joined.add(csn.toString());
        }
        return joined.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CsnVector other && Arrays.equals(csns, other.csns);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(csns);
    }

    @Override
    public String toString() {
        return format();
    }

    private int indexOf(int sid) {
        int low = 0;
        int high = csns.length - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            int midSid = csns[mid].sid();
            if (midSid < sid) {
                low = mid + 1;
            } else if (midSid > sid) {
                high = mid - 1;
            } else {
                return mid;
            }
        }
        return -(low + 1);
    }
}
