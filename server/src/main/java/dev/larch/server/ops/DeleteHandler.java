package dev.larch.server.ops;

import dev.larch.server.error.ResultCodeException;
import dev.larch.server.protocol.Operation;
import org.apache.directory.api.ldap.model.message.DeleteRequest;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.name.Dn;

/** Delete (RFC 4511 section 4.8): leaves only. */
final class DeleteHandler {
    private final Backend backend;

    DeleteHandler(Backend backend) {
        this.backend = backend;
    }

    void handle(Operation op, DeleteRequest request) {
        backend.access().requireWrite(op.session(), "delete entries");
        Dn dn = backend.schemaNormalizer().dn(request.getName());
        backend.writes().submit(op, txn -> {
            long id = backend.directory().require(txn, dn);
            if (txn.hasChildren(id)) {
                throw new ResultCodeException(
                        ResultCodeEnum.NOT_ALLOWED_ON_NON_LEAF,
                        "entry has subordinates; delete them first: " + dn.getName());
            }
            backend.directory().delete(txn, backend.directory().load(txn, id));
            ResultResponse response = request.getResultResponse();
            response.getLdapResult().setResultCode(ResultCodeEnum.SUCCESS);
            return response;
        });
    }
}
