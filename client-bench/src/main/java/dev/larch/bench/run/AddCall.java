package dev.larch.bench.run;

import com.unboundid.ldap.sdk.AddRequest;
import com.unboundid.ldap.sdk.AsyncResultListener;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPResult;
import dev.larch.bench.mix.OperationSpec;

/** Adds an entry of the worker's own; once the server says success the worker owns it. */
final class AddCall extends ResultCall {
    private final AddRequest add;
    private final OwnEntries owned;

    AddCall(int operation, OperationSpec spec, AddRequest add, OwnEntries owned) {
        super(operation, spec);
        this.add = add;
        this.owned = owned;
    }

    AddRequest add() {
        return add;
    }

    @Override
    LDAPResult call(LDAPConnection connection) throws LDAPException {
        return connection.add(add);
    }

    @Override
    void callAsync(LDAPConnection connection, AsyncResultListener listener) throws LDAPException {
        connection.asyncAdd(add, listener);
    }

    @Override
    String target() {
        return add.getDN();
    }

    @Override
    void settled(Answer answer) {
        if (answer.verdict() == Answer.Verdict.SUCCESS) {
            owned.added(add.getDN());
        }
    }
}
