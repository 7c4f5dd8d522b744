package dev.larch.server.write;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.larch.server.access.AccessControl;
import dev.larch.server.auth.IncomingPasswords;
import dev.larch.server.auth.policy.PasswordGuesses;
import dev.larch.server.auth.policy.PasswordModifications;
import dev.larch.server.auth.policy.PolicyRefusal;
import dev.larch.server.auth.policy.PpolicyControls;
import dev.larch.server.commit.WriteQueue;
import dev.larch.server.control.AssertionControl;
import dev.larch.server.control.ReadEntryControl;
import dev.larch.server.directory.Directory;
import dev.larch.server.directory.SchemaChecker;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.protocol.Operation;
import dev.larch.server.protocol.Session;
import dev.larch.server.search.FilterCompiler;
import dev.larch.server.store.ReadTxn;
import org.apache.directory.api.ldap.model.entry.Attribute;
import org.apache.directory.api.ldap.model.entry.DefaultModification;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.entry.Modification;
import org.apache.directory.api.ldap.model.entry.ModificationOperation;
import org.apache.directory.api.ldap.model.entry.Value;
import org.apache.directory.api.ldap.model.message.Control;
import org.apache.directory.api.ldap.model.message.ModifyRequest;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.name.Dn;
import org.apache.directory.api.ldap.model.schema.AttributeType;

/**
 * Modify (RFC 4511 section 4.6): all changes apply, and are schema-checked, or none do. A change to a
 * password attribute first goes through a worker ({@link PasswordWork}): the password policy checks
 * the cleartext ({@link PasswordModifications}), then
 * values added or replaced are hashed, and values deleted in cleartext are matched to the stored
 * hashes they verify against.
 */
public final class ModifyHandler {
    private final Integrity integrity;
    private final AssertionControl assertion;
    private final ReadEntryControl preRead;
    private final ReadEntryControl postRead;
    private final Directory directory;
    private final ModifyStamps stamps;
    private final WriteQueue writes;
    private final AccessControl access;
    private final SchemaChecker checker;
    /** The permissive modify control (AD's LDAP_SERVER_PERMISSIVE_MODIFY_OID), no value. */
    public static final String PERMISSIVE_MODIFY_OID = "1.2.840.113556.1.4.1413";

    private final ModificationApplier applier;
    private final PasswordWork passwordWork;
    /** Null when no password policy is enforced. */
    private final PasswordModifications policy;

    public ModifyHandler(
            Directory directory,
            SchemaChecker checker,
            WriteQueue writes,
            AccessControl access,
            PasswordWork passwordWork) {
        this(directory, checker, writes, access, passwordWork, null);
    }

    /** @param policy the password policy's view of password changes; null for none */
    public ModifyHandler(
            Directory directory,
            SchemaChecker checker,
            WriteQueue writes,
            AccessControl access,
            PasswordWork passwordWork,
            PasswordModifications policy) {
        this(directory, checker, writes, access, passwordWork, policy, Integrity.NONE);
    }

    /** @param integrity the uniqueness of attribute values a modify must keep */
    public ModifyHandler(
            Directory directory,
            SchemaChecker checker,
            WriteQueue writes,
            AccessControl access,
            PasswordWork passwordWork,
            PasswordModifications policy,
            Integrity integrity) {
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
        this.applier = new ModificationApplier(directory.schemaNormalizer());
        this.passwordWork = passwordWork;
        this.policy = policy;
    }

    public void handle(Operation op, ModifyRequest request) {
        Dn dn = directory.schemaNormalizer().dn(request.getName());
        List<Modification> modifications = new ArrayList<>(request.getModifications());
        access.validate(modifications);
        if (!touchesPasswords(op, modifications)) {
            submit(op, request, dn, modifications, modifications, null);
            return;
        }
        passwordWork.run(op, request, () -> prepare(op, request, dn, modifications));
    }

    /** On the event loop: whether a password attribute changes; refuses prehashed values the writer may not store. */
    private boolean touchesPasswords(Operation op, List<Modification> modifications) {
        IncomingPasswords passwords = passwordWork.passwords();
        boolean touches = false;
        for (Modification mod : modifications) {
            Attribute change = normalized(mod);
            if (change == null || !passwords.hashes(change)) {
                continue;
            }
            touches = true;
            if (mod.getOperation() != ModificationOperation.REMOVE_ATTRIBUTE) {
                passwords.screen(op.session(), change);
            }
        }
        return touches;
    }

    /** On a worker: the policy checks the cleartext, then the values are hashed and the write queued. */
    private void prepare(Operation op, ModifyRequest request, Dn dn, List<Modification> modifications) {
        Entry current;
        PasswordGuesses.Guess guess;
        PasswordModifications.Checked checked = null;
        try (ReadTxn txn = directory.store().read()) {
            StoredEntry stored = directory.load(txn, directory.require(txn, dn));
            // Before any hashing, so that a client without the right cannot make the server hash.
            access.requireModify(op.session(), txn, stored, modifications);
            current = directory.schemaNormalizer().toEntry(stored);
            guess = passwordWork.guesses().begin(txn, stored);
            if (policy != null) {
                try {
                    checked = policy.check(op.session(), current.clone(), modifications, txn);
                } catch (PolicyRefusal refusal) {
                    op.complete(refused(request, refusal));
                    return;
                }
            }
        }
        List<Modification> toApply = checked == null ? modifications : checked.modifications();
        submit(op, request, dn, modifications, withStoredPasswords(current, toApply, guess), checked);
    }

    /**
     * On a worker: the modifications with password values hashed (add, replace) or resolved (delete).
     * A delete by a cleartext value that matches no stored value is a wrong password guessed, counted
     * as a failed bind ({@code guess}); while the account is locked such a value is not checked at
     * all (the delete then fails with noSuchAttribute, as for any value the entry lacks).
     */
    private List<Modification> withStoredPasswords(
            Entry current, List<Modification> modifications, PasswordGuesses.Guess guess) {
        IncomingPasswords passwords = passwordWork.passwords();
        List<Modification> out = new ArrayList<>(modifications.size());
        for (Modification mod : modifications) {
            Attribute change = normalized(mod);
            if (change == null || !passwords.hashes(change)) {
                out.add(mod);
            } else if (mod.getOperation() == ModificationOperation.REMOVE_ATTRIBUTE) {
                Attribute existing = current.get(change.getAttributeType());
                if (existing != null && change.size() > 0 && !existingHoldsAll(existing, change) && guess.locked()) {
                    out.add(mod);
                    continue;
                }
                Attribute stored = passwords.storedValueFor(existing, change);
                if (existing != null && !existingHoldsAll(existing, stored)) {
                    guess.failed();
                }
                out.add(new DefaultModification(mod.getOperation(), stored));
            } else {
                out.add(new DefaultModification(mod.getOperation(), passwords.hashed(change)));
            }
        }
        return out;
    }

    /** Whether every value of {@code values} is one the entry stores as it is (no password check needed). */
    private static boolean existingHoldsAll(Attribute existing, Attribute values) {
        for (Value v : values) {
            if (!existing.contains(v)) {
                return false;
            }
        }
        return true;
    }

    /** The OIDs of the attribute types {@code modifications} change; unknown types are left out. */
    private Set<String> touched(List<Modification> modifications) {
        Set<String> oids = new HashSet<>();
        for (Modification mod : modifications) {
            AttributeType type = directory
                    .schemaNormalizer()
                    .schema()
                    .getAttributeType(mod.getAttribute().getUpId());
            if (type != null) {
                oids.add(type.getOid());
            }
        }
        return oids;
    }

    /** The schema-aware attribute of a modification, or null when its type is unknown (the applier says so). */
    private Attribute normalized(Modification mod) {
        if (directory.schemaNormalizer().typeOrNull(mod.getAttribute().getUpId()) == null) {
            return null;
        }
        return directory.schemaNormalizer().attribute(mod.getAttribute().getUpId(), mod.getAttribute());
    }

    /**
     * Queues the write.
     *
     * @param requested the modifications as the client sent them, which access control judges
     * @param modifications what to apply: the request's, with password values hashed
     * @param checked the password policy's verdict on a password change; null when none applies
     */
    private void submit(
            Operation op,
            ModifyRequest request,
            Dn dn,
            List<Modification> requested,
            List<Modification> modifications,
            PasswordModifications.Checked checked) {
        Session session = op.session();
        Dn modifier = session.boundDn();
        writes.submit(op, txn -> {
            ReadEntryControl.Requested pre = preRead.requested(request);
            ReadEntryControl.Requested post = postRead.requested(request);
            StoredEntry before = directory.load(txn, directory.require(txn, dn));
            access.requireModify(session, txn, before, requested);
            assertion.require(request, session, txn, before);
            Control preCopy = preRead.read(pre, session, txn, before);
            Entry entry = directory.schemaNormalizer().toEntry(before);
            applier.apply(entry, modifications, session.isAdmin(), request.hasControl(PERMISSIVE_MODIFY_OID));
            if (checked != null) {
                checked.effects().applyTo(entry);
            }
            integrity.requireUnique(txn, entry, before.id(), touched(modifications));
            stamps.stamp(entry, modifier);
            checker.addSuperclasses(entry);
            checker.check(entry);
            StoredEntry after = directory.replace(txn, before, entry);
            access.written(txn, before, after);
            Control postCopy = postRead.read(post, session, txn, after);
            if (checked != null && checked.selfChange()) {
                // Only once the change is durable: an aborted (no-op) change leaves the duty in place.
                txn.onCommit(() -> session.mustChangePassword(false));
            }
            ResultResponse response = request.getResultResponse();
            response.getLdapResult().setResultCode(ResultCodeEnum.SUCCESS);
            ReadEntryControl.attach(response, preCopy, postCopy);
            return response;
        });
    }

    private static ResultResponse refused(ModifyRequest request, PolicyRefusal refusal) {
        ResultResponse response = request.getResultResponse();
        response.getLdapResult().setResultCode(refusal.code());
        response.getLdapResult().setDiagnosticMessage(refusal.getMessage());
        PpolicyControls.error(request, response, refusal.error());
        return response;
    }
}
