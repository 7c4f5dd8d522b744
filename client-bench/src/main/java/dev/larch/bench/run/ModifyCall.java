package dev.larch.bench.run;

import com.unboundid.ldap.sdk.AsyncResultListener;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPResult;
import com.unboundid.ldap.sdk.ModifyRequest;
import dev.larch.bench.mix.OperationSpec;

/** Replaces one non-key attribute of a person; correct when the server says success. */
final class ModifyCall extends ResultCall {
    private final ModifyRequest modify;

    ModifyCall(int operation, OperationSpec spec, ModifyRequest modify) {
        super(operation, spec);
        this.modify = modify;
    }

    ModifyRequest modify() {
        return modify;
    }

    @Override
    LDAPResult call(LDAPConnection connection) throws LDAPException {
        return connection.modify(modify);
    }

    @Override
    void callAsync(LDAPConnection connection, AsyncResultListener listener) throws LDAPException {
        connection.asyncModify(modify, listener);
    }

    @Override
    String target() {
        return modify.getDN();
    }
}
