package dev.larch.server.write;

import dev.larch.server.access.AccessControl;
import dev.larch.server.directory.Directory;
import dev.larch.server.directory.SchemaChecker;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.protocol.Operation;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.message.ModifyRequest;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.name.Dn;

/** Modify (RFC 4511 section 4.6): all changes apply, and are schema-checked, or none do. */
public final class ModifyHandler {
    private final Directory directory;
    private final WriteQueue writes;
    private final AccessControl access;
    private final SchemaChecker checker;
    private final ModificationApplier applier;

    public ModifyHandler(Directory directory, SchemaChecker checker, WriteQueue writes, AccessControl access) {
        this.directory = directory;
        this.checker = checker;
        this.writes = writes;
        this.access = access;
        this.applier = new ModificationApplier(directory.schemaNormalizer());
    }

    public void handle(Operation op, ModifyRequest request) {
        access.validate(request.getModifications());
        Dn dn = directory.schemaNormalizer().dn(request.getName());
        Dn modifier = op.session().boundDn();
        writes.submit(op, txn -> {
            StoredEntry before = directory.load(txn, directory.require(txn, dn));
            access.requireModify(op.session(), txn, before, request.getModifications());
            Entry entry = directory.schemaNormalizer().toEntry(before);
            applier.apply(entry, request.getModifications());
            Timestamps.modified(entry, modifier);
            checker.addSuperclasses(entry);
            checker.check(entry);
            access.written(txn, before, directory.replace(txn, before, entry));
            ResultResponse response = request.getResultResponse();
            response.getLdapResult().setResultCode(ResultCodeEnum.SUCCESS);
            return response;
        });
    }
}
