package dev.larch.bench.run;

import java.util.function.Consumer;

import com.unboundid.ldap.sdk.AsyncCompareResultListener;
import com.unboundid.ldap.sdk.AsyncRequestID;
import com.unboundid.ldap.sdk.CompareRequest;
import com.unboundid.ldap.sdk.CompareResult;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import dev.larch.bench.mix.OperationSpec;

/** Compares one attribute value of a person; correct when the server gives the expected compareTrue or compareFalse. */
final class CompareCall implements Request {
    private final int operation;
    private final OperationSpec spec;
    private final CompareRequest compare;

    CompareCall(int operation, OperationSpec spec, CompareRequest compare) {
        this.operation = operation;
        this.spec = spec;
        this.compare = compare;
    }

    CompareRequest compare() {
        return compare;
    }

    @Override
    public int operation() {
        return operation;
    }

    @Override
    public Answer execute(LDAPConnection connection) {
        try {
            return judge(connection.compare(compare));
        } catch (LDAPException e) {
            return AnswerCheck.result(spec, e.getResultCode(), compare.getDN());
        }
    }

    @Override
    public void send(LDAPConnection connection, Consumer<Answer> done) {
        AsyncCompareResultListener listener = new AsyncCompareResultListener() {
            @Override
            public void compareResultReceived(AsyncRequestID id, CompareResult result) {
                done.accept(judge(result));
            }
        };
        try {
            connection.asyncCompare(compare, listener);
        } catch (LDAPException e) {
            done.accept(AnswerCheck.result(spec, e.getResultCode(), compare.getDN()));
        }
    }

    private Answer judge(CompareResult result) {
        return AnswerCheck.result(
                spec,
                result.getResultCode(),
                compare.getDN() + " " + compare.getAttributeName() + "=" + compare.getAssertionValue());
    }
}
