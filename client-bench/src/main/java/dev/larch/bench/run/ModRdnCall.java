package dev.larch.bench.run;

import com.unboundid.ldap.sdk.AsyncResultListener;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPResult;
import com.unboundid.ldap.sdk.ModifyDNRequest;
import dev.larch.bench.mix.OperationSpec;

/**
 * Renames one of the worker's own entries to a new RDN in the same container; the worker then
 * owns the new DN (or, after an error, still the old one).
 */
final class ModRdnCall extends ResultCall {
    private final ModifyDNRequest rename;
    private final String newDn;
    private final OwnEntries owned;

    ModRdnCall(int operation, OperationSpec spec, ModifyDNRequest rename, String newDn, OwnEntries owned) {
        super(operation, spec);
        this.rename = rename;
        this.newDn = newDn;
        this.owned = owned;
    }

    ModifyDNRequest rename() {
        return rename;
    }

    @Override
    LDAPResult call(LDAPConnection connection) throws LDAPException {
        return connection.modifyDN(rename);
    }

    @Override
    void callAsync(LDAPConnection connection, AsyncResultListener listener) throws LDAPException {
        connection.asyncModifyDN(rename, listener);
    }

    @Override
    String target() {
        return rename.getDN();
    }

    @Override
    void settled(Answer answer) {
        if (answer.verdict() == Answer.Verdict.SUCCESS) {
            owned.added(newDn);
        } else if (answer.verdict() == Answer.Verdict.ERROR) {
            owned.giveBack(rename.getDN());
        }
    }
}
