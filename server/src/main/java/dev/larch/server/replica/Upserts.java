package dev.larch.server.replica;

import java.util.Arrays;

import dev.larch.server.csn.Csn;
import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.entry.StoredStamps;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.store.DnTree;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.store.WriteTxn;
import org.apache.directory.api.ldap.model.entry.Attribute;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.name.Dn;
import org.apache.directory.api.ldap.model.schema.AttributeType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stores an entry a provider sent (an add, a modify, a rename, or an entry of a refresh), matched by
 * entryUUID, never by DN, with the conflict rules of a multi-provider set (docs/operations.md,
 * replication), each decided by the entries alone so that every member decides alike:
 * <ul>
 *   <li>an entry this server holds with an entryCSN as new or newer is kept as it is (modify against
 *       modify: the higher entryCSN wins, per entry; and a restarted refresh skips what it has);
 *   <li>a newer one replaces it whole, moved when its DN differs (a rename against a modify: the
 *       version with the higher CSN, DN included, wins);
 *   <li>an entry deleted here while its delete is in the change log is not brought back (a delete
 *       wins over any concurrent change of its entry);
 *   <li>two entries of one DN with different UUIDs (two adds of one DN, or a rename onto a DN added
 *       elsewhere): the one with the higher entryCSN keeps the DN; the other, where this server holds
 *       it, is deleted as a change of this server, which replicates (the suffix, which holds the tree,
 *       is replaced in place instead);
 *   <li>an entry whose parent is not here (deleted here while another member added or moved the
 *       entry below it) is dropped, or deleted where it stood: the delete of the parent wins over
 *       the subtree, as the other member deletes the entry with its parent's delete.
 * </ul>
 *
 * <p>Used on the writer thread only.
 */
final class Upserts {
    private static final Logger LOG = LoggerFactory.getLogger(Upserts.class);

    private final Directory directory;
    private final UuidIndex uuids;
    private final Removals removals;
    private final AttributeType memberOf;

    Upserts(Directory directory, UuidIndex uuids, Removals removals) {
        this.directory = directory;
        this.uuids = uuids;
        this.removals = removals;
        this.memberOf = directory.schemaNormalizer().schema().getAttributeType(Directory.MEMBER_OF_OID);
    }

    /** @return whether the entry was written; false when this server's copy stands */
    boolean apply(WriteTxn txn, IncomingEntry in) {
        if (txn.tombstone(in.uuid()) != null) {
            return false;
        }
        long id = uuids.find(txn, in.uuid());
        if (id == ReadTxn.NOT_FOUND) {
            return add(txn, in);
        }
        StoredEntry local = directory.load(txn, id);
        Csn localCsn = StoredStamps.csn(local);
        if (localCsn != null && !in.csn().isAfter(localCsn)) {
            return false;
        }
        keepMemberOf(local, in.entry());
        Dn newDn = in.entry().getDn();
        if (newDn.equals(directory.schemaNormalizer().dn(local.dn()))) {
            directory.replaceReplicated(txn, local, in.entry(), in.csn().toBytes());
            return true;
        }
        return rename(txn, local, in);
    }

    private boolean add(WriteTxn txn, IncomingEntry in) {
        Dn dn = in.entry().getDn();
        long occupant = directory.resolve(txn, dn);
        if (occupant != ReadTxn.NOT_FOUND) {
            StoredEntry other = directory.load(txn, occupant);
            if (!wins(in, other)) {
                return false;
            }
            if (other.parentId() == DnTree.NO_PARENT) {
                keepMemberOf(other, in.entry());
                directory.replaceReplicated(txn, other, in.entry(), in.csn().toBytes());
                return true;
            }
            removals.deleteLocally(txn, occupant);
        }
        long parentId = parentOf(txn, dn);
        if (parentId == ReadTxn.NOT_FOUND) {
            LOG.warn(
                    "dropped the provider's entry {} (entryCSN {}): its parent is not here (deleted here: a delete"
                            + " wins over an add below it)",
                    dn.getName(),
                    in.csn());
            return false;
        }
        directory.insertReplicated(txn, parentId, in.entry(), in.csn().toBytes());
        return true;
    }

    private boolean rename(WriteTxn txn, StoredEntry local, IncomingEntry in) {
        Dn newDn = in.entry().getDn();
        if (local.parentId() == DnTree.NO_PARENT || newDn.equals(directory.suffix())) {
            throw new ResultCodeException(
                    ResultCodeEnum.UNWILLING_TO_PERFORM,
                    "the provider renamed " + local.dn() + " to " + newDn.getName()
                            + ": the naming context's root is not renamed");
        }
        long occupant = directory.resolve(txn, newDn);
        if (occupant != ReadTxn.NOT_FOUND) {
            StoredEntry other = directory.load(txn, occupant);
            if (!wins(in, other)) {
                removals.deleteLocally(txn, local.id());
                return true;
            }
            removals.deleteLocally(txn, occupant);
        }
        long parentId = parentOf(txn, newDn);
        if (parentId == ReadTxn.NOT_FOUND) {
            LOG.warn(
                    "deleted {}: the provider moved it to {} (entryCSN {}), below an entry that is not here (deleted"
                            + " here: a delete wins over a move below it)",
                    local.dn(),
                    newDn.getName(),
                    in.csn());
            removals.deleteLocally(txn, local.id());
            return true;
        }
        if (directory.isWithin(txn, parentId, local.id())) {
            throw new ResultCodeException(
                    ResultCodeEnum.UNWILLING_TO_PERFORM,
                    "the provider moved " + local.dn() + " below itself, to " + newDn.getName());
        }
        StoredEntry moved = directory.moveReplicated(
                txn, local, parentId, in.entry(), in.csn().toBytes());
        directory.subtreeRenamed(txn, local.id(), local.dn(), moved.dn());
        return true;
    }

    /**
     * Whether the incoming entry takes a DN {@code other} holds: its entryCSN is higher (equal CSNs,
     * which two servers never stamp, are broken by the higher UUID).
     */
    private static boolean wins(IncomingEntry in, StoredEntry other) {
        Csn theirs = StoredStamps.csn(other);
        if (theirs == null || in.csn().isAfter(theirs)) {
            return true;
        }
        if (theirs.isAfter(in.csn())) {
            return false;
        }
        byte[] otherUuid = StoredStamps.uuid(other);
        return otherUuid == null || Arrays.compareUnsigned(in.uuid(), otherUuid) > 0;
    }

    /** The ID of the entry {@code dn} goes under, or {@link ReadTxn#NOT_FOUND} when it is not here. */
    private long parentOf(ReadTxn txn, Dn dn) {
        if (dn.equals(directory.suffix())) {
            return DnTree.NO_PARENT;
        }
        return directory.resolve(txn, dn.getParent());
    }

    /** Carries this server's memberOf values of {@code local} (computed here, never replicated) into {@code entry}. */
    private void keepMemberOf(StoredEntry local, Entry entry) {
        if (local.attribute(Directory.MEMBER_OF_OID) == null) {
            return;
        }
        Attribute values = directory.schemaNormalizer().toEntry(local).get(memberOf);
        try {
            entry.removeAttributes(memberOf);
            if (values != null) {
                entry.put(values);
            }
        } catch (LdapException e) {
            throw new ResultCodeException(ResultCodeEnum.OTHER, "cannot keep the memberOf values of " + local.dn());
        }
    }
}
