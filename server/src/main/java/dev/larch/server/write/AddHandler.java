package dev.larch.server.write;

import dev.larch.server.access.AccessControl;
import dev.larch.server.directory.Directory;
import dev.larch.server.directory.SchemaChecker;
import dev.larch.server.entry.StoredEntry;
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
    private final AccessControl access;

    public AddHandler(Directory directory, SchemaChecker checker, WriteQueue writes, AccessControl access) {
        this.directory = directory;
        this.newEntries = new NewEntries(directory, checker);
        this.writes = writes;
        this.access = access;
    }

    public void handle(Operation op, AddRequest request) {
        Dn dn = directory.schemaNormalizer().dn(request.getEntryDn());
        Entry entry =
                newEntries.prepare(dn, request.getEntry(), false, op.session().boundDn());
        access.validate(entry);
        writes.submit(op, txn -> {
            StoredEntry added = newEntries.insert(txn, entry);
            access.requireAdd(op.session(), txn, added);
            access.written(txn, null, added);
            ResultResponse response = request.getResultResponse();
            response.getLdapResult().setResultCode(ResultCodeEnum.SUCCESS);
            return response;
        });
    }
}
