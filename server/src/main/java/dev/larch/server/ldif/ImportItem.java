package dev.larch.server.ldif;

import org.apache.directory.api.ldap.model.entry.Entry;

/**
 * One entry the reader stage parsed and checked, or the reason reading stopped, or the end of the
 * file.
 *
 * @param position the entry's place in the file, counting from 1
 * @param dn the DN as the file spells it
 */
record ImportItem(long position, String dn, Entry entry, String failure) {
    static final ImportItem END = new ImportItem(-1, null, null, null);

    /** Whether this is the reader's last item, {@link #END}: no entry and no failure. */
    boolean isEnd() {
        return entry == null && failure == null;
    }

    static ImportItem failure(String message) {
        return new ImportItem(-1, null, null, message);
    }
}
