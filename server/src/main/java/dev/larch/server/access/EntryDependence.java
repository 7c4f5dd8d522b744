package dev.larch.server.access;

/**
 * How far a rule's answer for one requester can differ between the entries under one parent, which
 * decides whether those entries may share one {@link EntryRights}. The built-in rules hold a
 * {@code userdn = "ldap:///self"}: treated as depending on the entry, it made every entry of a search
 * work out its rights alone, though for an anonymous requester {@code self} never matches and for a
 * bound one it matches only the requester's own entry.
 */
enum EntryDependence {
    /** The same answer for every entry under a parent. */
    NONE,
    /** The same answer for every entry under a parent but the requester's own ({@code self}). */
    OWN_ENTRY,
    /** The answer can differ for any entry ({@code target}, {@code targetfilter}, {@code userattr}). */
    ANY;

    /** The wider of the two. */
    EntryDependence or(EntryDependence other) {
        return compareTo(other) >= 0 ? this : other;
    }
}
