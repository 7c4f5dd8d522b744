package dev.larch.server.access;

import java.util.List;
import java.util.Map;

/**
 * Every ACI in force at one moment: the global rules of {@code access.file} and the {@code aci} values
 * of the directory, keyed by the ID of the entry holding them (IDs survive renames and moves, so a
 * moved holder keeps governing its subtree). Immutable; {@link AccessControl} replaces the whole
 * snapshot after a committed change, so a request sees one consistent set of rules.
 *
 * <p>Memory: the compiled ACIs, one small object graph per value; the number of values is what the
 * directory holds, read at start and after each change to an {@code aci}.
 */
record AciSnapshot(
        List<Aci> global,
        Map<Long, List<Aci>> byHolder,
        EntryDependence globalWhenAnonymous,
        EntryDependence globalWhenBound) {

    AciSnapshot(List<Aci> global, Map<Long, List<Aci>> byHolder) {
        this(List.copyOf(global), Map.copyOf(byHolder), widest(global, true), widest(global, false));
    }

    /** How far what the global rules grant can differ between entries under one parent. */
    EntryDependence globalDependence(boolean anonymous) {
        return anonymous ? globalWhenAnonymous : globalWhenBound;
    }

    private static EntryDependence widest(List<Aci> acis, boolean anonymous) {
        EntryDependence widest = EntryDependence.NONE;
        for (Aci aci : acis) {
            widest = widest.or(aci.dependence(anonymous));
        }
        return widest;
    }

    /** The ACIs entry {@code id} holds; empty when none. */
    List<Aci> heldBy(long id) {
        List<Aci> held = byHolder.get(id);
        return held == null ? List.of() : held;
    }

    boolean hasHolders() {
        return !byHolder.isEmpty();
    }

    /** How many ACIs are in force, for the start-up log. */
    int size() {
        return global.size() + byHolder.values().stream().mapToInt(List::size).sum();
    }
}
