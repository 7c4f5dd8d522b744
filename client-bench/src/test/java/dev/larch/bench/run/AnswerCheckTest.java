package dev.larch.bench.run;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.bench.mix.Expectation;
import dev.larch.bench.mix.MixLoader;
import dev.larch.bench.mix.OperationSpec;
import dev.larch.bench.mix.Template;
import org.junit.jupiter.api.Test;

import static dev.larch.bench.run.Answer.Verdict.ERROR;
import static dev.larch.bench.run.Answer.Verdict.PARTIAL;
import static dev.larch.bench.run.Answer.Verdict.SUCCESS;
import static dev.larch.bench.run.Answer.Verdict.WRONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AnswerCheckTest {
    private static final String ANN = "cn=Ann Lee,ou=Payroll,dc=example,dc=com";
    private static final String BOB = "cn=Bob Ray,ou=Payroll,dc=example,dc=com";

    private static OperationSpec op(Expectation e, String... requireAttributes) {
        return OperationSpec.search(
                "op",
                100,
                Template.parse("${suffix}"),
                SearchScope.SUB,
                List.of(Template.parse("(cn=x)")),
                List.of(),
                e,
                List.of(requireAttributes),
                0);
    }

    private static SearchResultEntry entry(String dn, Attribute... attrs) {
        return new SearchResultEntry(dn, attrs, new Control[0]);
    }

    private static SearchResultEntry entry(Attribute... attrs) {
        return entry("cn=g,dc=example,dc=com", attrs);
    }

    private static Answer judge(OperationSpec op, Expected expected, SearchResultEntry... entries) {
        return AnswerCheck.judge(op, expected, entries.length, List.of(entries), false);
    }

    private static Expected person(String dn, Map<String, String> values) {
        return new Expected(dn, values, null, Map.of(), List.of(), false);
    }

    @Test
    void exactLookupMustReturnExactlyOneEntry() {
        OperationSpec one = op(Expectation.ONE);
        assertEquals(SUCCESS, judge(one, Expected.SHAPE, entry()).verdict());
        assertEquals(WRONG, judge(one, Expected.SHAPE).verdict());
        assertEquals(WRONG, judge(one, Expected.SHAPE, entry(), entry()).verdict());
        assertEquals(
                WRONG,
                AnswerCheck.judge(one, Expected.SHAPE, 1, List.of(entry()), true)
                        .verdict());
    }

    @Test
    void notFoundThatFindsSomethingIsWrong() {
        OperationSpec none = op(Expectation.NONE);
        assertEquals(SUCCESS, judge(none, Expected.SHAPE).verdict());
        assertEquals(WRONG, judge(none, Expected.SHAPE, entry()).verdict());
    }

    @Test
    void sizeLimitExceededWithEntriesIsAPartialSuccessForWildcards() {
        OperationSpec some = op(Expectation.SOME);
        assertEquals(
                PARTIAL,
                AnswerCheck.judge(some, Expected.SHAPE, 500, List.of(), true).verdict());
        assertEquals(
                WRONG,
                AnswerCheck.judge(some, Expected.SHAPE, 0, List.of(), true).verdict());
        assertEquals(
                SUCCESS,
                AnswerCheck.judge(some, Expected.SHAPE, 3, List.of(), false).verdict());
    }

    @Test
    void anotherPersonThanTheOneAskedForIsWrong() {
        OperationSpec one = op(Expectation.ONE);
        Answer wrong = judge(one, person(ANN, Map.of()), entry(BOB));
        assertEquals(WRONG, wrong.verdict());
        assertEquals("asked for " + ANN + ", got " + BOB, wrong.problem());
        // DN equality ignores case and spacing, as RFC 4514 matching does
        assertEquals(
                SUCCESS,
                judge(one, person(ANN, Map.of()), entry("CN=ann lee, ou=payroll,DC=Example,dc=com"))
                        .verdict());
    }

    @Test
    void aRequestedAttributeMissingOrWithAnotherValueIsWrong() {
        OperationSpec one = op(Expectation.ONE);
        Expected mail = person(ANN, Map.of("mail", "Ann_Lee@example.com"));
        assertEquals(
                SUCCESS,
                judge(one, mail, entry(ANN, new Attribute("mail", "ann_lee@EXAMPLE.com")))
                        .verdict());
        Answer missing = judge(one, mail, entry(ANN, new Attribute("cn", "Ann Lee")));
        assertEquals(WRONG, missing.verdict());
        assertTrue(missing.problem().contains("lacks requested mail"), missing.problem());
        assertEquals(
                WRONG,
                judge(one, mail, entry(ANN, new Attribute("mail", "bob@example.com")))
                        .verdict());
        OperationSpec withPhone = op(Expectation.SOME, "telephoneNumber");
        Expected phone = new Expected(null, Map.of(), null, Map.of(), List.of("telephoneNumber"), false);
        Answer noPhone = judge(withPhone, phone, entry(ANN, new Attribute("cn", "Ann Lee")));
        assertEquals(WRONG, noPhone.verdict());
        assertEquals(ANN + " lacks telephoneNumber", noPhone.problem());
    }

    @Test
    void everyWildcardHitMustStartWithThePrefix() {
        OperationSpec some = op(Expectation.SOME);
        Expected abe = new Expected(null, Map.of(), null, Map.of("sn", "Abe"), List.of(), false);
        assertEquals(
                SUCCESS,
                judge(some, abe, entry(ANN, new Attribute("sn", "ABEL")), entry(BOB, new Attribute("sn", "x", "abes")))
                        .verdict());
        Answer stray =
                judge(some, abe, entry(ANN, new Attribute("sn", "Abel")), entry(BOB, new Attribute("sn", "Ray")));
        assertEquals(WRONG, stray.verdict());
        assertTrue(stray.problem().contains(BOB) && stray.problem().contains("Abe"), stray.problem());
        assertEquals(WRONG, judge(some, abe, entry(ANN)).verdict(), "a hit without sn cannot be checked");
    }

    @Test
    void aGroupMustListEveryMemberOfTheDataFile() {
        OperationSpec one = op(Expectation.ONE, "member");
        String g = "cn=Group 000001,ou=Groups,dc=example,dc=com";
        Expected members = new Expected(g, Map.of(), List.of(ANN, BOB), Map.of(), List.of("member"), false);
        assertEquals(
                SUCCESS,
                judge(one, members, entry(g, new Attribute("member", BOB.toUpperCase(Locale.ROOT), ANN)))
                        .verdict());
        assertEquals(
                SUCCESS,
                judge(
                                one,
                                members,
                                entry(g, new Attribute("member", "cn=Bob Ray, ou=Payroll, dc=example, dc=com", ANN)))
                        .verdict(),
                "compared as DNs");
        Answer truncated = judge(one, members, entry(g, new Attribute("member", ANN)));
        assertEquals(WRONG, truncated.verdict());
        assertTrue(truncated.problem().contains("lists 1 of its 2 members"), truncated.problem());
        assertEquals(
                WRONG,
                judge(one, members, entry(g, new Attribute("member", ANN, BOB, "cn=Eve,dc=example,dc=com")))
                        .verdict());
        assertEquals(
                WRONG, judge(one, members, entry(g, new Attribute("cn", "g"))).verdict());
    }

    @Test
    void noSuchObjectIsRightOnlyForABaseAbsentByDesign() {
        OperationSpec none = op(Expectation.NONE);
        Expected absent = new Expected(null, Map.of(), null, Map.of(), List.of(), true);
        assertEquals(SUCCESS, AnswerCheck.noSuchObject(none, absent, "cn=x").verdict());
        Answer real = AnswerCheck.noSuchObject(none, Expected.SHAPE, "dc=example,dc=com");
        assertEquals(WRONG, real.verdict());
        assertEquals("noSuchObject for base dc=example,dc=com, which the data file holds", real.problem());
        assertEquals(
                WRONG,
                AnswerCheck.noSuchObject(op(Expectation.ONE), Expected.SHAPE, ANN)
                        .verdict());
        assertEquals(WRONG, judge(none, absent).verdict(), "success for a base that does not exist");
    }

    @Test
    void resultCodesAreJudgedAgainstTheExpectedOne() {
        MixLoader loader = new MixLoader();
        OperationSpec compareTrue = loader.parse(
                        "{\"operations\":[{\"name\":\"c\",\"type\":\"compare\",\"share\":100}]}"
                                .getBytes(StandardCharsets.UTF_8),
                        "t")
                .operations()
                .get(0);
        assertEquals(
                SUCCESS,
                AnswerCheck.result(compareTrue, ResultCode.COMPARE_TRUE, ANN).verdict());
        assertEquals(
                WRONG,
                AnswerCheck.result(compareTrue, ResultCode.COMPARE_FALSE, ANN).verdict());
        assertEquals(
                WRONG,
                AnswerCheck.result(compareTrue, ResultCode.NO_SUCH_OBJECT, ANN).verdict());
        assertEquals(
                ERROR,
                AnswerCheck.result(compareTrue, ResultCode.INSUFFICIENT_ACCESS_RIGHTS, ANN)
                        .verdict());
        OperationSpec wrongPassword = loader.parse(
                        ("{\"operations\":[{\"name\":\"b\",\"type\":\"bind\",\"share\":100,"
                                        + "\"password\":\"${uid}-x\",\"expect\":\"invalidCredentials\"}]}")
                                .getBytes(StandardCharsets.UTF_8),
                        "t")
                .operations()
                .get(0);
        assertEquals(
                SUCCESS,
                AnswerCheck.result(wrongPassword, ResultCode.INVALID_CREDENTIALS, ANN)
                        .verdict());
        assertEquals(
                WRONG,
                AnswerCheck.result(wrongPassword, ResultCode.SUCCESS, ANN).verdict());
    }
}
