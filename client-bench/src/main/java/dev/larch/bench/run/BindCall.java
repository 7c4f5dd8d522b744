package dev.larch.bench.run;

import java.util.function.Consumer;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SimpleBindRequest;
import dev.larch.bench.mix.OperationSpec;

/**
 * A simple bind as a person with the password the mix makes from the data file (by default the
 * uid, the password of every generated person); correct when the result is the expected success
 * or invalidCredentials. It changes who the connection is, so it is never pipelined: {@link #send}
 * binds synchronously and then reports.
 */
final class BindCall implements Request {
    private final int operation;
    private final OperationSpec spec;
    private final SimpleBindRequest bind;

    BindCall(int operation, OperationSpec spec, String dn, String password) {
        this.operation = operation;
        this.spec = spec;
        this.bind = new SimpleBindRequest(dn, password);
    }

    String dn() {
        return bind.getBindDN();
    }

    /** The bind as the mix made it; not to be sent as it is (an SDK request is sent once): duplicate it. */
    SimpleBindRequest request() {
        return bind;
    }

    /** Whether {@code rc} is the right answer to this bind. */
    Answer judge(ResultCode rc) {
        return AnswerCheck.result(spec, rc, bind.getBindDN());
    }

    @Override
    public int operation() {
        return operation;
    }

    @Override
    public boolean pipelinable() {
        return false;
    }

    @Override
    public Answer execute(LDAPConnection connection) {
        try {
            return judge(connection.bind(bind.duplicate()).getResultCode());
        } catch (LDAPException e) {
            return judge(e.getResultCode());
        }
    }

    @Override
    public void send(LDAPConnection connection, Consumer<Answer> done) {
        done.accept(execute(connection));
    }
}
