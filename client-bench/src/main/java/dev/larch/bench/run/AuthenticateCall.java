package dev.larch.bench.run;

import java.util.function.Consumer;

import com.unboundid.ldap.sdk.LDAPConnection;

/**
 * Binds the worker's connection as a person, then reads that person's entry as that person (a
 * login: check the password, fetch the profile). Both must be right for a correct answer; the
 * latency covers both. Not pipelined, like any bind.
 */
final class AuthenticateCall implements Request {
    private final BindCall bind;
    private final SearchCall read;

    AuthenticateCall(BindCall bind, SearchCall read) {
        this.bind = bind;
        this.read = read;
    }

    BindCall bind() {
        return bind;
    }

    SearchCall read() {
        return read;
    }

    @Override
    public int operation() {
        return bind.operation();
    }

    @Override
    public boolean pipelinable() {
        return false;
    }

    @Override
    public Answer execute(LDAPConnection connection) {
        Answer bound = bind.execute(connection);
        return bound.verdict() == Answer.Verdict.SUCCESS ? read.execute(connection) : bound;
    }

    @Override
    public void send(LDAPConnection connection, Consumer<Answer> done) {
        done.accept(execute(connection));
    }
}
