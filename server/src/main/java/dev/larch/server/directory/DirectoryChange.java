package dev.larch.server.directory;

import dev.larch.server.entry.StoredEntry;
import org.apache.directory.api.ldap.model.message.controls.ChangeType;

/**
 * One entry changed by a write transaction, as the {@link ChangeObserver} is told of it.
 *
 * @param type add, delete, modify, or modDN (a rename or move, and each descendant whose DN changed
 *     with it)
 * @param entry the entry after the change; for a delete, the entry as it was
 * @param previousDn the entry's DN before a modDN, as stored; null for the other types
 * @param before the entry before a modify, so an observer can tell which attributes changed; null
 *     for the other types
 * @param csn the CSN the change was stamped with (for a delete, the delete's own); null for an
 *     entry whose DN changed only because an ancestor was renamed, which is not stamped
 */
public record DirectoryChange(ChangeType type, StoredEntry entry, String previousDn, StoredEntry before, byte[] csn) {}
