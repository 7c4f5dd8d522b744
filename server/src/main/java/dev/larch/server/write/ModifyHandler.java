package dev.larch.server.write;

import java.util.List;

import dev.larch.server.auth.AccessPolicy;
import dev.larch.server.auth.policy.PasswordModifications;
import dev.larch.server.auth.policy.PolicyRefusal;
import dev.larch.server.auth.policy.PpolicyControls;
import dev.larch.server.directory.Directory;
import dev.larch.server.directory.SchemaChecker;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.protocol.Operation;
import dev.larch.server.protocol.Session;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.entry.Modification;
import org.apache.directory.api.ldap.model.message.ModifyRequest;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.name.Dn;

/**
 * Modify (RFC 4511 section 4.6): all changes apply, and are schema-checked, or none do. Changes to
 * {@code userPassword} pass the password policy first ({@link PasswordModifications}); a bound user
 * may change their own password.
 */
public final class ModifyHandler {
    private final Directory directory;
    private final WriteQueue writes;
    private final AccessPolicy access;
    private final SchemaChecker checker;
    private final ModificationApplier applier;
    /** Null when no password policy is enforced. */
    private final PasswordModifications passwords;

    public ModifyHandler(Directory directory, SchemaChecker checker, WriteQueue writes, AccessPolicy access) {
        this(directory, checker, writes, access, null);
    }

    /** @param passwords the password policy's view of password changes; null for none */
    public ModifyHandler(
            Directory directory,
            SchemaChecker checker,
            WriteQueue writes,
            AccessPolicy access,
            PasswordModifications passwords) {
        this.directory = directory;
        this.checker = checker;
        this.writes = writes;
        this.access = access;
        this.applier = new ModificationApplier(directory.schemaNormalizer());
        this.passwords = passwords;
    }

    public void handle(Operation op, ModifyRequest request) {
        Session session = op.session();
        Dn dn = directory.schemaNormalizer().dn(request.getName());
        List<Modification> modifications = List.copyOf(request.getModifications());
        if (passwords == null || !passwords.isSelfChange(session, dn, modifications)) {
            access.requireWrite(session, "modify entries");
        }
        Dn modifier = session.boundDn();
        writes.submit(op, txn -> {
            StoredEntry before = directory.load(txn, directory.require(txn, dn));
            Entry entry = directory.schemaNormalizer().toEntry(before);
            PasswordModifications.Checked checked;
            try {
                checked = passwords == null ? null : passwords.check(session, entry.clone(), modifications, txn);
            } catch (PolicyRefusal refusal) {
                ResultResponse response = request.getResultResponse();
                response.getLdapResult().setResultCode(refusal.code());
                response.getLdapResult().setDiagnosticMessage(refusal.getMessage());
                PpolicyControls.error(request, response, refusal.error());
                return response;
            }
            applier.apply(entry, checked == null ? modifications : checked.modifications(), session.isAdmin());
            if (checked != null) {
                checked.effects().applyTo(entry);
            }
            Timestamps.modified(entry, modifier);
            checker.addSuperclasses(entry);
            checker.check(entry);
            directory.replace(txn, before, entry);
            if (checked != null && checked.selfChange()) {
                session.mustChangePassword(false);
            }
            ResultResponse response = request.getResultResponse();
            response.getLdapResult().setResultCode(ResultCodeEnum.SUCCESS);
            return response;
        });
    }
}
