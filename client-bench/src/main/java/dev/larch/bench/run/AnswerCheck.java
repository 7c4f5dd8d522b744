package dev.larch.bench.run;

import java.util.List;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.SearchResultEntry;
import dev.larch.bench.mix.Expectation;
import dev.larch.bench.mix.OperationSpec;

/**
 * Judges whether an answer has the shape the mix expects.
 *
 * <p>sizeLimitExceeded is a partial success when the entries received already satisfy the
 * expectation (a wildcard search that hit the server's size limit still answered); for an exact
 * lookup it means more than one entry matched, which is a wrong answer.
 */
public final class AnswerCheck {
    private AnswerCheck() {}

    public static Answer judge(
            OperationSpec op, int entryCount, List<SearchResultEntry> entries, boolean sizeLimitExceeded) {
        Expectation expect = op.expect();
        if (sizeLimitExceeded && (expect == Expectation.ONE || expect == Expectation.NONE)) {
            return Answer.wrong(entryCount, 4, "sizeLimitExceeded where " + expect.label() + " entry was expected");
        }
        if (!expect.accepts(entryCount)) {
            return Answer.wrong(entryCount, 0, entryCount + " entries where " + expect.label() + " was expected");
        }
        if (op.requireAttribute() != null) {
            for (SearchResultEntry e : entries) {
                Attribute a = e.getAttribute(op.requireAttribute());
                if (a == null || a.size() == 0) {
                    // e.g. a group without members
                    return Answer.wrong(entryCount, 0, e.getDN() + " lacks " + op.requireAttribute());
                }
            }
        }
        return sizeLimitExceeded ? Answer.partial(entryCount, 4) : Answer.success(entryCount);
    }
}
