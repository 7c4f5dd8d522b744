package dev.larch.bench.run;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;

/** The loads a ramp tries, in order: lightest (fewest threads in all) first. */
public final class RampLoads {
    private RampLoads() {}

    /** One step's load. */
    public record Load(int clients, int threads) {
        int connections() {
            return clients * threads;
        }
    }

    /** {@code start}, {@code start + step}, ... up to {@code max} clients, each with {@code threads} threads. */
    public static List<Load> linear(int start, int step, int max, int threads) {
        List<Load> loads = new ArrayList<>();
        for (int c = start; c <= max; c += step) {
            loads.add(new Load(c, threads));
        }
        return loads;
    }

    /**
     * Every pair of {@code clients} × {@code threads}, ordered by clients × threads and then by
     * clients, so the load never falls from one step to the next; duplicates are dropped.
     */
    public static List<Load> grid(List<Integer> clients, List<Integer> threads) {
        LinkedHashSet<Load> loads = new LinkedHashSet<>();
        for (int c : clients) {
            for (int t : threads) {
                loads.add(new Load(c, t));
            }
        }
        List<Load> sorted = new ArrayList<>(loads);
        sorted.sort(Comparator.comparingInt(Load::connections).thenComparingInt(Load::clients));
        return sorted;
    }
}
