package dev.larch.server.directory;

import dev.larch.server.store.ReadTxn;

/**
 * The entry IDs of parents by normalized DN, so that resolving a DN below a known parent costs one
 * look-up in the DN index instead of one per RDN from the naming context's root: a bind as
 * {@code uid=x,ou=people,dc=example,dc=com} reads one DN-index record instead of three.
 *
 * <p>A cached ID is only ever a hint for the last step of a walk, never an answer by itself: a
 * parent found here was seen in some snapshot of the current rename generation ({@link
 * ReadTxn#renameGeneration()}; a DN changes only by a modify DN, which moves to the next), but it
 * may since have been deleted, or be added only after the reader's snapshot. Either way it has no
 * children in that snapshot, since IDs are never handed out twice, so the child look-up under it
 * finds nothing, and the caller then walks from the root ({@link Directory#resolve}). A child found
 * under it is therefore the right one.
 *
 * <p>Bounded: {@value #SLOTS} slots, each holding the last parent whose DN hashed to it; a
 * directory has few parents (a million people under a handful of organizational units), and a
 * collision only costs a walk from the root. Only parents of entries that exist go in, so a client
 * naming absent entries fills nothing.
 *
 * <p>Thread-safe without locks: a slot holds an immutable record, whose final fields every thread
 * sees complete once it sees the record; a racing fill overwrites another, which is harmless.
 */
final class ParentIds {
    static final int SLOTS = 4096;
    private static final int MASK = SLOTS - 1;

    private record Slot(String dn, long id, long generation) {}

    private final Slot[] slots = new Slot[SLOTS];

    /**
     * The ID cached for the parent DN that is {@code normalizedDn} from index {@code from} on, for
     * rename generation {@code generation}; {@link ReadTxn#NOT_FOUND} when none is.
     */
    long get(String normalizedDn, int from, long generation) {
        Slot slot = slots[hash(normalizedDn, from) & MASK];
        if (slot == null
                || slot.generation() != generation
                || slot.dn().length() != normalizedDn.length() - from
                || !slot.dn().regionMatches(0, normalizedDn, from, slot.dn().length())) {
            return ReadTxn.NOT_FOUND;
        }
        return slot.id();
    }

    /** Remembers that the parent DN {@code normalizedDn} from index {@code from} on is entry {@code id}. */
    void put(String normalizedDn, int from, long id, long generation) {
        slots[hash(normalizedDn, from) & MASK] = new Slot(normalizedDn.substring(from), id, generation);
    }

    /** {@link String#hashCode()} of the region, spread so that the low bits index the slots. */
    private static int hash(String s, int from) {
        int h = 0;
        for (int i = from; i < s.length(); i++) {
            h = 31 * h + s.charAt(i);
        }
        return h ^ (h >>> 16);
    }
}
