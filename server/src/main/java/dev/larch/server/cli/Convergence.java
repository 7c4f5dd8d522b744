package dev.larch.server.cli;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import dev.larch.server.csn.Csn;

/**
 * Whether two servers hold the same state: their contextCSNs compared per server ID. Equal for every
 * server ID either knows: converged. Otherwise each server ID that differs, and by how many seconds of
 * CSN time the one behind trails (or that only one of them knows it).
 *
 * @param differences one line per server ID that differs, in server ID order; empty when converged
 */
record Convergence(List<String> differences) {

    boolean converged() {
        return differences.isEmpty();
    }

    /**
     * @param here this server's contextCSN values
     * @param there the provider's
     * @throws IllegalArgumentException when a value is not a CSN
     */
    static Convergence of(Collection<String> here, Collection<String> there) {
        Map<Integer, Csn> mine = bySid(here);
        Map<Integer, Csn> theirs = bySid(there);
        List<String> differences = new ArrayList<>();
        for (int sid : union(mine, theirs)) {
            Csn a = mine.get(sid);
            Csn b = theirs.get(sid);
            String id = String.format(Locale.ROOT, "server ID %03x", sid);
            if (a == null) {
                differences.add(id + ": only the provider has its changes (up to " + b + ")");
            } else if (b == null) {
                differences.add(id + ": only this server has its changes (up to " + a + ")");
            } else if (!a.equals(b)) {
                double seconds = Math.abs(a.epochMicros() - b.epochMicros()) / 1_000_000.0;
                differences.add(String.format(
                        Locale.ROOT,
                        "%s: %s %.3f s of CSN time behind (%s here, %s there)",
                        id,
                        a.compareTo(b) < 0 ? "this server is" : "the provider is",
                        seconds,
                        a,
                        b));
            }
        }
        return new Convergence(List.copyOf(differences));
    }

    private static Set<Integer> union(Map<Integer, Csn> a, Map<Integer, Csn> b) {
        Set<Integer> all = new TreeSet<>(a.keySet());
        all.addAll(b.keySet());
        return all;
    }

    /** The newest CSN of each server ID (a contextCSN holds one per server ID; a duplicate keeps the newest). */
    private static Map<Integer, Csn> bySid(Collection<String> values) {
        Map<Integer, Csn> out = new TreeMap<>();
        for (String value : values) {
            Csn csn = Csn.parse(value);
            out.merge(csn.sid(), csn, (x, y) -> x.compareTo(y) >= 0 ? x : y);
        }
        return out;
    }
}
