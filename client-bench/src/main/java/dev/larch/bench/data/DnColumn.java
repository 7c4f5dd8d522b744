package dev.larch.bench.data;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An append-only column of DNs, each kept as its first RDN plus an index into a dictionary of
 * parent DNs: a million people under a handful of containers cost their RDNs, not a million copies
 * of {@code ou=...,dc=example,dc=com}. DNs come back exactly as they were added.
 *
 * <p>Not thread-safe while appending; safe to read from many threads once filled and published.
 */
final class DnColumn {
    private final StringColumn rdns = new StringColumn();
    private final List<String> parents = new ArrayList<>();
    private final Map<String, Integer> parentIndex = new HashMap<>();
    private int[] parentOf = new int[1 << 8];

    /** Appends {@code dn} and returns its index. */
    int add(String dn) {
        int comma = firstSeparator(dn);
        String rdn = comma < 0 ? dn : dn.substring(0, comma);
        String parent = comma < 0 ? "" : dn.substring(comma + 1);
        Integer p = parentIndex.get(parent);
        if (p == null) {
            p = parents.size();
            parents.add(parent);
            parentIndex.put(parent, p);
        }
        int index = rdns.add(rdn);
        if (index == parentOf.length) {
            parentOf = Arrays.copyOf(parentOf, parentOf.length + (parentOf.length >> 1));
        }
        parentOf[index] = p;
        return index;
    }

    int size() {
        return rdns.size();
    }

    String get(int index) {
        String parent = parents.get(parentOf[index]);
        return parent.isEmpty() ? rdns.get(index) : rdns.get(index) + "," + parent;
    }

    /** The DN one level up from entry {@code index} ("" for a DN of one RDN). */
    String parent(int index) {
        return parents.get(parentOf[index]);
    }

    void trim() {
        rdns.trim();
        parentOf = Arrays.copyOf(parentOf, rdns.size());
    }

    /**
     * Where the first RDN ends: the first comma not escaped by a backslash (RFC 4514), or -1. A
     * plus inside the RDN (multi-valued) stays with it.
     */
    static int firstSeparator(String dn) {
        for (int i = 0; i < dn.length(); i++) {
            char c = dn.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == ',') {
                return i;
            }
        }
        return -1;
    }
}
