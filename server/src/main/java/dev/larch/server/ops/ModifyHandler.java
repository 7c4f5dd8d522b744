package dev.larch.server.ops;

import dev.larch.server.entry.StoredEntry;
import dev.larch.server.protocol.Operation;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.message.ModifyRequest;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.name.Dn;

/** Modify (RFC 4511 section 4.6): all changes apply, and are schema-checked, or none do. */
final class ModifyHandler {
    private final Backend backend;
    private final ModificationApplier applier;

    ModifyHandler(Backend backend) {
        this.backend = backend;
        this.applier = new ModificationApplier(backend.schemaNormalizer());
    }

    void handle(Operation op, ModifyRequest request) {
        backend.access().requireWrite(op.session(), "modify entries");
        Dn dn = backend.schemaNormalizer().dn(request.getName());
        Dn modifier = op.session().boundDn();
        backend.writes().submit(op, txn -> {
            StoredEntry before =
                    backend.directory().load(txn, backend.directory().require(txn, dn));
            Entry entry = backend.schemaNormalizer().toEntry(before);
            applier.apply(entry, request.getModifications());
            Timestamps.modified(entry, modifier);
            backend.checker().addSuperclasses(entry);
            backend.checker().check(entry);
            backend.directory().replace(txn, before, entry);
            ResultResponse response = request.getResultResponse();
            response.getLdapResult().setResultCode(ResultCodeEnum.SUCCESS);
            return response;
        });
    }
}
