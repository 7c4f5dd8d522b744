package dev.larch.server.ops;

import dev.larch.server.protocol.Operation;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.message.AddRequest;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.name.Dn;

/** Add (RFC 4511 section 4.7): validated on the event loop, written on the write queue. */
final class AddHandler {
    private final Backend backend;
    private final NewEntries newEntries;

    AddHandler(Backend backend) {
        this.backend = backend;
        this.newEntries = new NewEntries(backend.directory(), backend.checker());
    }

    void handle(Operation op, AddRequest request) {
        backend.access().requireWrite(op.session(), "add entries");
        Dn dn = backend.schemaNormalizer().dn(request.getEntryDn());
        Entry entry =
                newEntries.prepare(dn, request.getEntry(), false, op.session().boundDn());
        backend.writes().submit(op, txn -> {
            newEntries.insert(txn, entry);
            ResultResponse response = request.getResultResponse();
            response.getLdapResult().setResultCode(ResultCodeEnum.SUCCESS);
            return response;
        });
    }
}
