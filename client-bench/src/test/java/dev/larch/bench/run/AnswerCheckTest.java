package dev.larch.bench.run;

import java.util.List;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.bench.mix.Expectation;
import dev.larch.bench.mix.OperationSpec;
import dev.larch.bench.mix.Template;
import org.junit.jupiter.api.Test;

import static dev.larch.bench.run.Answer.Verdict.PARTIAL;
import static dev.larch.bench.run.Answer.Verdict.SUCCESS;
import static dev.larch.bench.run.Answer.Verdict.WRONG;
import static org.junit.jupiter.api.Assertions.assertEquals;

class AnswerCheckTest {
    private static OperationSpec op(Expectation e, String requireAttribute) {
        return new OperationSpec(
                "op",
                100,
                Template.parse("${suffix}"),
                SearchScope.SUB,
                List.of(Template.parse("(cn=x)")),
                List.of(),
                e,
                requireAttribute,
                0);
    }

    private static SearchResultEntry entry(Attribute... attrs) {
        return new SearchResultEntry("cn=g,dc=example,dc=com", attrs, new Control[0]);
    }

    @Test
    void exactLookupMustReturnExactlyOneEntry() {
        OperationSpec one = op(Expectation.ONE, null);
        assertEquals(SUCCESS, AnswerCheck.judge(one, 1, List.of(entry()), false).verdict());
        assertEquals(WRONG, AnswerCheck.judge(one, 0, List.of(), false).verdict());
        assertEquals(
                WRONG,
                AnswerCheck.judge(one, 2, List.of(entry(), entry()), false).verdict());
        assertEquals(WRONG, AnswerCheck.judge(one, 1, List.of(entry()), true).verdict());
    }

    @Test
    void notFoundThatFindsSomethingIsWrong() {
        OperationSpec none = op(Expectation.NONE, null);
        assertEquals(SUCCESS, AnswerCheck.judge(none, 0, List.of(), false).verdict());
        assertEquals(WRONG, AnswerCheck.judge(none, 1, List.of(entry()), false).verdict());
    }

    @Test
    void sizeLimitExceededWithEntriesIsAPartialSuccessForWildcards() {
        OperationSpec some = op(Expectation.SOME, null);
        assertEquals(PARTIAL, AnswerCheck.judge(some, 500, List.of(), true).verdict());
        assertEquals(WRONG, AnswerCheck.judge(some, 0, List.of(), true).verdict());
        assertEquals(SUCCESS, AnswerCheck.judge(some, 3, List.of(), false).verdict());
    }

    @Test
    void groupWithoutMembersIsWrong() {
        OperationSpec group = op(Expectation.ONE, "member");
        assertEquals(
                WRONG,
                AnswerCheck.judge(group, 1, List.of(entry(new Attribute("cn", "g"))), false)
                        .verdict());
        assertEquals(
                SUCCESS,
                AnswerCheck.judge(group, 1, List.of(entry(new Attribute("member", "cn=a"))), false)
                        .verdict());
    }
}
