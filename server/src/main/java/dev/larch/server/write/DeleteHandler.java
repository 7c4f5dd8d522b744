package dev.larch.server.write;

import dev.larch.server.access.AccessControl;
import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.protocol.Operation;
import org.apache.directory.api.ldap.model.message.DeleteRequest;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.name.Dn;

/** Delete (RFC 4511 section 4.8): leaves only. */
public final class DeleteHandler {
    private final Directory directory;
    private final WriteQueue writes;
    private final AccessControl access;

    public DeleteHandler(Directory directory, WriteQueue writes, AccessControl access) {
        this.directory = directory;
        this.writes = writes;
        this.access = access;
    }

    public void handle(Operation op, DeleteRequest request) {
        Dn dn = directory.schemaNormalizer().dn(request.getName());
        writes.submit(op, txn -> {
            long id = directory.require(txn, dn);
            StoredEntry entry = directory.load(txn, id);
            access.requireDelete(op.session(), txn, entry);
            if (txn.hasChildren(id)) {
                throw new ResultCodeException(
                        ResultCodeEnum.NOT_ALLOWED_ON_NON_LEAF,
                        "entry has subordinates; delete them first: " + dn.getName());
            }
            directory.delete(txn, entry);
            access.written(txn, entry, null);
            ResultResponse response = request.getResultResponse();
            response.getLdapResult().setResultCode(ResultCodeEnum.SUCCESS);
            return response;
        });
    }
}
