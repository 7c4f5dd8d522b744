package dev.larch.bench.run;

import java.util.function.Consumer;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;

/**
 * One short-lived client: connects, binds as a person, reads that person's entry and unbinds,
 * all inside the measured latency (what a web login or a mail client's first contact costs).
 *
 * <p>Against a plain-LDAP target the login runs over a bare socket ({@link PlainLogin}: no SDK
 * connection, no thread per connect), so the load generator's own cost per connection stays below
 * the servers'. An LDAPS or StartTLS target gets a new SDK connection through the run's {@link
 * ServerTarget}, secured the same way every time; without a target (unit tests) it goes where the
 * worker's connection goes, with the same socket factory and options, and a StartTLS upgrade is not
 * repeated. The worker's connection itself is not used. Not pipelined.
 */
final class ChurnCall implements Request {
    private final AuthenticateCall login;
    private final ServerTarget target;

    ChurnCall(AuthenticateCall login, ServerTarget target) {
        this.login = login;
        this.target = target;
    }

    AuthenticateCall login() {
        return login;
    }

    @Override
    public int operation() {
        return login.operation();
    }

    @Override
    public boolean pipelinable() {
        return false;
    }

    @Override
    public Answer execute(LDAPConnection worker) {
        if (!worker.isConnected()) {
            return Answer.error(ResultCode.SERVER_DOWN_INT_VALUE, false);
        }
        if (target != null && target.tls().mode() == Tls.Mode.NONE) {
            return PlainLogin.run(target, login.bind(), login.read());
        }
        LDAPConnection own;
        try {
            own = target != null
                    ? target.connect(true)
                    : new LDAPConnection(
                            worker.getSocketFactory(),
                            worker.getConnectionOptions().duplicate(),
                            worker.getConnectedAddress(),
                            worker.getConnectedPort());
        } catch (LDAPException e) {
            // the worker's own connection is not affected by a failed connect of this one
            return Answer.error(e.getResultCode().intValue(), true);
        }
        try {
            Answer answer = login.execute(own);
            // the answer is about this request, not the worker's connection
            return new Answer(answer.verdict(), answer.entries(), answer.resultCode(), true, answer.problem());
        } finally {
            own.close(); // sends the unbind
        }
    }

    @Override
    public void send(LDAPConnection connection, Consumer<Answer> done) {
        done.accept(execute(connection));
    }
}
