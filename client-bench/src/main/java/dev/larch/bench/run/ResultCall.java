package dev.larch.bench.run;

import java.util.function.Consumer;

import com.unboundid.ldap.sdk.AsyncRequestID;
import com.unboundid.ldap.sdk.AsyncResultListener;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPResult;
import dev.larch.bench.mix.OperationSpec;

/**
 * A request whose answer is one LDAPResult (modify, add, delete, modify DN), judged by its result
 * code; subclasses say how to send it and may act on the outcome (e.g. remember an added entry).
 */
abstract class ResultCall implements Request {
    private final int operation;
    final OperationSpec spec;

    ResultCall(int operation, OperationSpec spec) {
        this.operation = operation;
        this.spec = spec;
    }

    @Override
    public int operation() {
        return operation;
    }

    /** Sends synchronously; an LDAPException carries the result code. */
    abstract LDAPResult call(LDAPConnection connection) throws LDAPException;

    /** Sends asynchronously, reporting to {@code listener}. */
    abstract void callAsync(LDAPConnection connection, AsyncResultListener listener) throws LDAPException;

    /** The DN the request is about, for problem texts. */
    abstract String target();

    /** Called once with the judged answer, before the caller sees it. */
    void settled(Answer answer) {}

    @Override
    public final Answer execute(LDAPConnection connection) {
        LDAPResult result;
        try {
            result = call(connection);
        } catch (LDAPException e) {
            result = e.toLDAPResult();
        }
        return finish(result);
    }

    @Override
    public final void send(LDAPConnection connection, Consumer<Answer> done) {
        try {
            callAsync(connection, new Listener(done));
        } catch (LDAPException e) {
            done.accept(finish(e.toLDAPResult()));
        }
    }

    private Answer finish(LDAPResult result) {
        Answer answer = AnswerCheck.result(spec, result.getResultCode(), target());
        settled(answer);
        return answer;
    }

    private final class Listener implements AsyncResultListener {
        private final Consumer<Answer> done;

        Listener(Consumer<Answer> done) {
            this.done = done;
        }

        @Override
        public void ldapResultReceived(AsyncRequestID id, LDAPResult result) {
            done.accept(finish(result));
        }
    }
}
