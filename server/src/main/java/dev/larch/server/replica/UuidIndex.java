package dev.larch.server.replica;

import dev.larch.config.IndexKind;
import dev.larch.server.entry.EntryUuids;
import dev.larch.server.store.IdSet;
import dev.larch.server.store.IndexKeys;
import dev.larch.server.store.LmdbStore;
import dev.larch.server.store.ReadTxn;
import org.apache.directory.api.ldap.model.constants.SchemaConstants;
import org.apache.directory.api.ldap.model.entry.Value;
import org.apache.directory.api.ldap.model.exception.LdapInvalidAttributeValueException;
import org.apache.directory.api.ldap.model.schema.AttributeType;
import org.apache.directory.api.ldap.model.schema.SchemaManager;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * Finds an entry by its entryUUID through the entryUUID equality index: how a replica matches what
 * a provider sends with what it holds, whatever either's DN (RFC 4533 section 2.1.1).
 *
 * <p>Thread-safe (immutable).
 */
final class UuidIndex {
    private final AttributeType entryUuid;

    /**
     * @throws IllegalArgumentException when the store keeps no equality index on entryUUID, which a
     *     replica needs to find entries (it is one of the default indexes)
     */
    UuidIndex(LmdbStore store, SchemaManager schema) {
        this.entryUuid = schema.getAttributeType(SchemaConstants.ENTRY_UUID_AT);
        if (!store.indexes().isIndexed(entryUuid.getOid(), IndexKind.EQUALITY)) {
            throw new IllegalArgumentException(
                    "a replication consumer needs the equality index on entryUUID (index.entryUUID = equality)");
        }
    }

    /** The ID of the entry whose entryUUID is {@code uuid} (16 bytes), or {@link ReadTxn#NOT_FOUND}. */
    long find(ReadTxn txn, byte[] uuid) {
        byte[] key;
        try {
            key = new Value(entryUuid, EntryUuids.toText(uuid)).getNormalized().getBytes(UTF_8);
        } catch (LdapInvalidAttributeValueException e) {
            throw new IllegalStateException("a UUID's text does not pass the entryUUID syntax", e);
        }
        IdSet ids = txn.ids(
                entryUuid.getOid(),
                IndexKind.EQUALITY,
                IndexKeys.keys(IndexKind.EQUALITY, key, entryUuid.getSyntaxOid())
                        .get(0),
                2);
        if (ids == null || ids.size() > 1) {
            throw new IllegalStateException(
                    "more than one entry has entryUUID " + EntryUuids.toText(uuid) + " (run ./larch verify)");
        }
        return ids.isEmpty() ? ReadTxn.NOT_FOUND : ids.get(0);
    }
}
