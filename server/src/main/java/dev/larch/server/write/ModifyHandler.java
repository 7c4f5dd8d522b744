package dev.larch.server.write;

import java.util.ArrayList;
import java.util.List;

import dev.larch.server.auth.AccessPolicy;
import dev.larch.server.auth.IncomingPasswords;
import dev.larch.server.directory.Directory;
import dev.larch.server.directory.SchemaChecker;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.protocol.Operation;
import dev.larch.server.store.ReadTxn;
import org.apache.directory.api.ldap.model.entry.Attribute;
import org.apache.directory.api.ldap.model.entry.DefaultModification;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.entry.Modification;
import org.apache.directory.api.ldap.model.entry.ModificationOperation;
import org.apache.directory.api.ldap.model.message.ModifyRequest;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.name.Dn;

/**
 * Modify (RFC 4511 section 4.6): all changes apply, and are schema-checked, or none do. A change to
 * {@code userPassword} first goes through a worker ({@link PasswordWork}): values added or replaced
 * are hashed, and values deleted in cleartext are matched to the stored hashes they verify against.
 */
public final class ModifyHandler {
    private final Directory directory;
    private final WriteQueue writes;
    private final AccessPolicy access;
    private final SchemaChecker checker;
    private final ModificationApplier applier;
    private final PasswordWork passwordWork;

    public ModifyHandler(
            Directory directory,
            SchemaChecker checker,
            WriteQueue writes,
            AccessPolicy access,
            PasswordWork passwordWork) {
        this.directory = directory;
        this.checker = checker;
        this.writes = writes;
        this.access = access;
        this.applier = new ModificationApplier(directory.schemaNormalizer());
        this.passwordWork = passwordWork;
    }

    public void handle(Operation op, ModifyRequest request) {
        access.requireWrite(op.session(), "modify entries");
        Dn dn = directory.schemaNormalizer().dn(request.getName());
        List<Modification> modifications = new ArrayList<>(request.getModifications());
        if (!touchesPasswords(op, modifications)) {
            submit(op, request, dn, modifications);
            return;
        }
        passwordWork.run(op, request, () -> submit(op, request, dn, withStoredPasswords(op, dn, modifications)));
    }

    /** On the event loop: refuses prehashed values the writer may not store. */
    private boolean touchesPasswords(Operation op, List<Modification> modifications) {
        IncomingPasswords passwords = passwordWork.passwords();
        boolean touches = false;
        for (Modification mod : modifications) {
            Attribute change = normalized(mod);
            if (change == null || !passwords.hashes(change)) {
                continue;
            }
            if (mod.getOperation() == ModificationOperation.REMOVE_ATTRIBUTE) {
                touches |= change.size() > 0;
            } else {
                touches |= passwords.screen(op.session(), change);
            }
        }
        return touches;
    }

    /** On a worker: the modifications with password values hashed (add, replace) or resolved (delete). */
    private List<Modification> withStoredPasswords(Operation op, Dn dn, List<Modification> modifications) {
        Entry current;
        try (ReadTxn txn = directory.store().read()) {
            current = directory.schemaNormalizer().toEntry(directory.load(txn, directory.require(txn, dn)));
        }
        IncomingPasswords passwords = passwordWork.passwords();
        boolean adminReset = op.session().isAdmin() && !dn.equals(op.session().boundDn());
        List<Modification> out = new ArrayList<>(modifications.size());
        for (Modification mod : modifications) {
            Attribute change = normalized(mod);
            if (change == null || !passwords.hashes(change)) {
                out.add(mod);
            } else if (mod.getOperation() == ModificationOperation.REMOVE_ATTRIBUTE) {
                Attribute stored = passwords.storedValueFor(current.get(change.getAttributeType()), change);
                out.add(new DefaultModification(mod.getOperation(), stored));
            } else {
                Attribute hashed = passwords.hashed(op.session(), current, change, adminReset);
                out.add(new DefaultModification(mod.getOperation(), hashed));
            }
        }
        return out;
    }

    /** The schema-aware attribute of a modification, or null when its type is unknown (the applier says so). */
    private Attribute normalized(Modification mod) {
        if (directory.schemaNormalizer().typeOrNull(mod.getAttribute().getUpId()) == null) {
            return null;
        }
        return directory.schemaNormalizer().attribute(mod.getAttribute().getUpId(), mod.getAttribute());
    }

    private void submit(Operation op, ModifyRequest request, Dn dn, List<Modification> modifications) {
        Dn modifier = op.session().boundDn();
        writes.submit(op, txn -> {
            StoredEntry before = directory.load(txn, directory.require(txn, dn));
            Entry entry = directory.schemaNormalizer().toEntry(before);
            applier.apply(entry, modifications);
            Timestamps.modified(entry, modifier);
            checker.addSuperclasses(entry);
            checker.check(entry);
            directory.replace(txn, before, entry);
            ResultResponse response = request.getResultResponse();
            response.getLdapResult().setResultCode(ResultCodeEnum.SUCCESS);
            return response;
        });
    }
}
