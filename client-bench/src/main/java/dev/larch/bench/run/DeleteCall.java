package dev.larch.bench.run;

import com.unboundid.ldap.sdk.AsyncResultListener;
import com.unboundid.ldap.sdk.DeleteRequest;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPResult;
import dev.larch.bench.mix.OperationSpec;

/**
 * Deletes one of the worker's own entries. An entry whose delete failed with an error is given
 * back (it still exists); one the server says is gone (noSuchObject, a wrong answer) is not.
 */
final class DeleteCall extends ResultCall {
    private final DeleteRequest delete;
    private final OwnEntries owned;

    DeleteCall(int operation, OperationSpec spec, DeleteRequest delete, OwnEntries owned) {
        super(operation, spec);
        this.delete = delete;
        this.owned = owned;
    }

    DeleteRequest delete() {
        return delete;
    }

    @Override
    LDAPResult call(LDAPConnection connection) throws LDAPException {
        return connection.delete(delete);
    }

    @Override
    void callAsync(LDAPConnection connection, AsyncResultListener listener) throws LDAPException {
        connection.asyncDelete(delete, listener);
    }

    @Override
    String target() {
        return delete.getDN();
    }

    @Override
    void settled(Answer answer) {
        if (answer.verdict() == Answer.Verdict.ERROR) {
            owned.giveBack(delete.getDN());
        }
    }
}
