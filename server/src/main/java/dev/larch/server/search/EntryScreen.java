package dev.larch.server.search;

import dev.larch.server.entry.StoredEntry;

/**
 * What one search's client may see: whether an entry that matches may be returned, how the filter is
 * judged on it when the client may not search some of its attributes, and which attributes it may
 * read. Implemented by access control; {@link #ALL} sees everything.
 *
 * <p>Used by one search at a time, in entry order: {@link #mayRead} is asked about the entry that
 * {@link #evaluate} last accepted.
 */
public interface EntryScreen {
    /** The filter's verdict as this client may learn it; TRUE only when the entry may also be returned. */
    Tri evaluate(StoredEntry entry, Filter filter);

    /** Whether the client may see the values of the attribute {@code oid} of {@code entry}. */
    boolean mayRead(StoredEntry entry, String oid);

    /**
     * Whether the client may see that {@code entry} exists at all (it may be returned when it
     * matches). Asked about other entries than the one last accepted (the children behind
     * hasSubordinates), so it may cost a decision of its own.
     */
    boolean mayReadEntry(StoredEntry entry);

    /**
     * {@link #mayReadEntry} for the entry {@code id} under {@code parentId} without reading it: TRUE
     * or FALSE when no rule in reach looks at the entry's content, UNDEFINED when the entry must be
     * read and asked about.
     */
    default Tri mayReadEntryUnread(long id, long parentId) {
        return Tri.UNDEFINED;
    }

    /** No restriction: the administrator's view. */
    EntryScreen ALL = new EntryScreen() {
        @Override
        public Tri evaluate(StoredEntry entry, Filter filter) {
            return filter.evaluate(entry);
        }

        @Override
        public boolean mayRead(StoredEntry entry, String oid) {
            return true;
        }

        @Override
        public boolean mayReadEntry(StoredEntry entry) {
            return true;
        }

        @Override
        public Tri mayReadEntryUnread(long id, long parentId) {
            return Tri.TRUE;
        }
    };
}
