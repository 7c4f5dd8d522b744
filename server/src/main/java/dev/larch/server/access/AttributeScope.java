package dev.larch.server.access;

import java.util.Set;

/**
 * {@code targetattr}: the attributes an ACI covers. Names resolve to OIDs when the ACI is parsed; an
 * attribute is covered when it or one of its supertypes is listed, so {@code userPassword} also covers
 * its subtypes. Immutable.
 *
 * @param oids the listed attributes; empty with {@code all}
 * @param negated {@code targetattr != "..."}: every attribute except those listed
 * @param all {@code targetattr = "*"} or no {@code targetattr}
 */
record AttributeScope(Set<String> oids, boolean negated, boolean all) {
    static final AttributeScope ALL = new AttributeScope(Set.of(), false, true);

    AttributeScope {
        oids = Set.copyOf(oids);
    }

    /**
     * Whether the attribute with this lineage (its OID, then its supertypes' OIDs) is covered.
     *
     * @param lineage from {@link AciSchema#lineage(String)}; never null
     */
    boolean covers(String[] lineage) {
        if (all) {
            return true;
        }
        boolean listed = false;
        for (String oid : lineage) {
            if (oids.contains(oid)) {
                listed = true;
                break;
            }
        }
        return listed != negated;
    }

    /** Whether the attribute {@code oid} is named in the list (not covered by {@code *} or {@code !=}). */
    boolean names(String oid) {
        return !all && !negated && oids.contains(oid);
    }

    /** Whether every attribute is covered, so that a deny of this scope withholds the whole entry. */
    boolean coversEverything() {
        return all;
    }
}
