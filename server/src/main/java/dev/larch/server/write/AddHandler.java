package dev.larch.server.write;

import dev.larch.server.auth.AccessPolicy;
import dev.larch.server.auth.policy.PasswordModifications;
import dev.larch.server.directory.Directory;
import dev.larch.server.directory.SchemaChecker;
import dev.larch.server.protocol.Operation;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.message.AddRequest;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.name.Dn;

/** Add (RFC 4511 section 4.7): validated on the event loop, written on the write queue. */
public final class AddHandler {
    private final Directory directory;
    private final NewEntries newEntries;
    private final WriteQueue writes;
    private final AccessPolicy access;
    /** Null when no password policy is enforced. */
    private final PasswordModifications passwords;

    public AddHandler(Directory directory, SchemaChecker checker, WriteQueue writes, AccessPolicy access) {
        this(directory, checker, writes, access, null);
    }

    /** @param passwords stamps {@code pwdChangedTime} on entries added with a governed password; null for none */
    public AddHandler(
            Directory directory,
            SchemaChecker checker,
            WriteQueue writes,
            AccessPolicy access,
            PasswordModifications passwords) {
        this.passwords = passwords;
        this.directory = directory;
        this.newEntries = new NewEntries(directory, checker);
        this.writes = writes;
        this.access = access;
    }

    public void handle(Operation op, AddRequest request) {
        access.requireWrite(op.session(), "add entries");
        Dn dn = directory.schemaNormalizer().dn(request.getEntryDn());
        Entry entry = newEntries.prepare(
                dn,
                request.getEntry(),
                false,
                op.session().boundDn(),
                op.session().isAdmin());
        writes.submit(op, txn -> {
            if (passwords != null) {
                passwords.onAdd(op.session(), entry, txn).applyTo(entry);
            }
            newEntries.insert(txn, entry);
            ResultResponse response = request.getResultResponse();
            response.getLdapResult().setResultCode(ResultCodeEnum.SUCCESS);
            return response;
        });
    }
}
