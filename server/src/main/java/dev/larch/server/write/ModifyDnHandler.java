package dev.larch.server.write;

import java.util.HashSet;
import java.util.Set;

import dev.larch.server.access.AccessControl;
import dev.larch.server.commit.WriteQueue;
import dev.larch.server.control.AssertionControl;
import dev.larch.server.control.ReadEntryControl;
import dev.larch.server.directory.Directory;
import dev.larch.server.directory.SchemaChecker;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.protocol.Operation;
import dev.larch.server.search.FilterCompiler;
import dev.larch.server.store.ReadTxn;
import org.apache.directory.api.ldap.model.entry.Attribute;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.message.Control;
import org.apache.directory.api.ldap.model.message.ModifyDnRequest;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.name.Ava;
import org.apache.directory.api.ldap.model.name.Dn;
import org.apache.directory.api.ldap.model.name.Rdn;

/**
 * Modify DN (RFC 4511 section 4.9): renames an entry and, with newSuperior, moves it and its
 * whole subtree. The entry keeps its ID; descendants keep their IDs, DN-index records and stored
 * entries untouched, since entries store their RDN and their DN follows from the parent chain
 * ({@link Directory#move}). What depends on the descendants' DNs is found through the indexes of
 * DN-valued attributes, not by reading the descendants: the references to them (referential
 * integrity, {@link Integrity#referencesMovedBelow}) and the memberOf values naming them or naming
 * groups among them ({@link Directory#subtreeRenamed}). A rename of an entry with N descendants, M
 * of them referred to, writes one entry plus the entries referring to the M and reads the M; it
 * reads the N only while a persistent search waits, to tell it of each.
 */
public final class ModifyDnHandler {
    private final Integrity integrity;
    private final AssertionControl assertion;
    private final ReadEntryControl preRead;
    private final ReadEntryControl postRead;
    private final Directory directory;
    private final ModifyStamps stamps;
    private final WriteQueue writes;
    private final AccessControl access;
    private final SchemaChecker checker;

    public ModifyDnHandler(Directory directory, SchemaChecker checker, WriteQueue writes, AccessControl access) {
        this(directory, checker, writes, access, Integrity.NONE);
    }

    /** @param integrity the references a rename updates and the uniqueness it must keep */
    public ModifyDnHandler(
            Directory directory, SchemaChecker checker, WriteQueue writes, AccessControl access, Integrity integrity) {
        this.integrity = integrity;
        this.assertion = new AssertionControl(
                new FilterCompiler(directory.schemaNormalizer().schema()), access);
        this.preRead = ReadEntryControl.preRead(access, directory);
        this.postRead = ReadEntryControl.postRead(access, directory);
        this.directory = directory;
        this.stamps = new ModifyStamps(directory.schemaNormalizer().schema());
        this.checker = checker;
        this.writes = writes;
        this.access = access;
    }

    public void handle(Operation op, ModifyDnRequest request) {
        Dn dn = directory.schemaNormalizer().dn(request.getName());
        // No newSuperior keeps the parent; an explicit empty one means "under the root", which the
        // naming-context check below refuses.
        Dn newParentDn =
                request.getNewSuperior() == null || (request.getNewSuperior().isEmpty() && !request.isMove())
                        ? dn.getParent()
                        : directory.schemaNormalizer().dn(request.getNewSuperior());
        Rdn newRdn = request.getNewRdn();
        Dn newDn = directory
                .schemaNormalizer()
                .dn(newRdn.getName() + (newParentDn.isEmpty() ? "" : "," + newParentDn.getName()));
        Dn modifier = op.session().boundDn();
        writes.submit(op, txn -> {
            ReadEntryControl.Requested pre = preRead.requested(request);
            ReadEntryControl.Requested post = postRead.requested(request);
            long id = directory.require(txn, dn);
            StoredEntry before = directory.load(txn, id);
            access.requireDelete(op.session(), txn, before);
            assertion.require(request, op.session(), txn, before);
            Control preCopy = preRead.read(pre, op.session(), txn, before);
            if (dn.equals(directory.suffix())) {
                throw new ResultCodeException(
                        ResultCodeEnum.UNWILLING_TO_PERFORM, "cannot rename the naming context's root entry");
            }
            if (!directory.holds(newDn) || newDn.equals(directory.suffix())) {
                throw new ResultCodeException(
                        ResultCodeEnum.UNWILLING_TO_PERFORM, "cannot move an entry out of the naming context");
            }
            long newParentId = directory.require(txn, newParentDn);
            if (directory.isWithin(txn, newParentId, id)) {
                throw new ResultCodeException(ResultCodeEnum.UNWILLING_TO_PERFORM, "cannot move an entry below itself");
            }
            long existing = directory.resolve(txn, newDn);
            if (existing != ReadTxn.NOT_FOUND && existing != id) {
                throw new ResultCodeException(
                        ResultCodeEnum.ENTRY_ALREADY_EXISTS, "entry already exists: " + newDn.getName());
            }
            Entry entry = directory.schemaNormalizer().toEntry(before);
            entry.setDn(newDn);
            renameValues(entry, dn.getRdn(), newDn.getRdn(), request.getDeleteOldRdn());
            Set<String> naming = new HashSet<>();
            newDn.getRdn().forEach(ava -> naming.add(ava.getAttributeType().getOid()));
            integrity.requireUnique(txn, entry, id, naming);
            stamps.stamp(entry, modifier);
            checker.check(entry);
            StoredEntry after = directory.move(txn, before, newParentId, entry);
            access.requireRenameTo(op.session(), txn, before, after);
            access.written(txn, before, after);
            Control postCopy = postRead.read(post, op.session(), txn, after);
            // Descendants are neither written nor, unless someone needs each of them, read; a leaf
            // (most renames) has none to ask about.
            boolean hasDescendants = txn.hasChildren(id);
            if (hasDescendants) {
                directory.subtreeRenamed(txn, id, before.dn(), after.dn());
            }
            integrity.referencesMoved(
                    txn,
                    directory.schemaNormalizer().dn(before.dn()),
                    directory.schemaNormalizer().dn(after.dn()),
                    modifier);
            if (hasDescendants) {
                // After every DN changed, so references held inside the moved subtree are found too.
                integrity.referencesMovedBelow(txn, before.dn(), after.dn(), modifier);
            }
            ResultResponse response = request.getResultResponse();
            response.getLdapResult().setResultCode(ResultCodeEnum.SUCCESS);
            ReadEntryControl.attach(response, preCopy, postCopy);
            return response;
        });
    }

    /** Adds the new RDN's values and, with deleteOldRdn, drops old ones the new RDN does not keep. */
    private void renameValues(Entry entry, Rdn oldRdn, Rdn newRdn, boolean deleteOldRdn) {
        try {
            for (Ava ava : newRdn) {
                Attribute a = entry.get(ava.getAttributeType());
                if (a == null || !a.contains(ava.getValue())) {
                    entry.add(ava.getAttributeType(), ava.getValue());
                }
            }
            if (deleteOldRdn) {
                for (Ava ava : oldRdn) {
                    // Compare whole AVAs: Rdn.getAva(type) looks up the normalized type (an OID in a
                    // schema-aware RDN), so getAva("ou") found nothing and a move that kept its RDN
                    // deleted the naming value.
                    if (keeps(newRdn, ava)) {
                        continue;
                    }
                    Attribute a = entry.get(ava.getAttributeType());
                    if (a != null) {
                        a.remove(ava.getValue());
                        if (a.size() == 0) {
                            entry.removeAttributes(ava.getAttributeType());
                        }
                    }
                }
            }
        } catch (LdapException e) {
            throw new ResultCodeException(ResultCodeEnum.OTHER, e.getMessage());
        }
    }

    private static boolean keeps(Rdn rdn, Ava ava) {
        for (Ava kept : rdn) {
            if (kept.equals(ava)) {
                return true;
            }
        }
        return false;
    }
}
