package dev.larch.bench.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import com.unboundid.ldap.listener.interceptor.InMemoryInterceptedSearchEntry;
import com.unboundid.ldap.listener.interceptor.InMemoryInterceptedSearchRequest;
import com.unboundid.ldap.listener.interceptor.InMemoryOperationInterceptor;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import dev.larch.bench.TestData;
import dev.larch.bench.report.BenchResult;
import dev.larch.bench.report.JsonReport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each answer check proved able to fail: a server that answers with the wrong entry, drops a
 * requested attribute, truncates a group, returns a wildcard hit that does not match, or says
 * noSuchObject for a real base gives wrong answers, never successes, with examples in result.json.
 */
class WrongAnswersIT {
    /** How the test server misbehaves; HONEST answers truthfully. */
    enum Fault {
        HONEST,
        WRONG_ENTRY,
        DROP_MAIL,
        TRUNCATE_MEMBERS,
        STRAY_WILDCARD_HIT,
        NO_SUCH_OBJECT
    }

    static final String SOMEONE_ELSE = "cn=Someone Else,ou=Payroll,dc=example,dc=com";

    @TempDir
    static Path dir;

    static Path ldif;
    static InMemoryServer server;
    static final AtomicReference<Fault> fault = new AtomicReference<>(Fault.HONEST);

    @BeforeAll
    static void start() throws Exception {
        ldif = TestData.ldif(dir.resolve("data.ldif"), 500);
        server = new InMemoryServer(ldif, new Misbehaving());
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @BeforeEach
    void honest() {
        fault.set(Fault.HONEST);
    }

    /** Bends answers according to {@link #fault}. */
    static final class Misbehaving extends InMemoryOperationInterceptor {
        @Override
        public void processSearchRequest(InMemoryInterceptedSearchRequest request) throws LDAPException {
            if (fault.get() == Fault.NO_SUCH_OBJECT
                    && !request.getRequest().getBaseDN().isEmpty()) { // the root DSE stays readable
                throw new LDAPException(ResultCode.NO_SUCH_OBJECT, "pretending the base does not exist");
            }
        }

        @Override
        public void processSearchEntry(InMemoryInterceptedSearchEntry result) {
            Entry e = result.getSearchEntry().duplicate();
            switch (fault.get()) {
                case WRONG_ENTRY -> e.setDN(SOMEONE_ELSE);
                case DROP_MAIL -> e.removeAttribute("mail");
                case TRUNCATE_MEMBERS -> {
                    String[] members = e.getAttributeValues("member");
                    if (members != null && members.length > 1) {
                        e.setAttribute("member", List.of(members).subList(0, members.length - 1));
                    }
                }
                case STRAY_WILDCARD_HIT -> {
                    if (result.getRequest().getFilter().getFilterType() == Filter.FILTER_TYPE_SUBSTRING) {
                        e.setAttribute("sn", "Qqqq");
                        e.setAttribute("givenName", "Qqqq");
                    }
                }
                default -> {
                    return;
                }
            }
            result.setSearchEntry(e);
        }
    }

    private static BenchResult.Operation bench(String mix, String name) throws Exception {
        Path out = dir.resolve(name);
        CliRun run = BenchArgs.of(mix, server.port(), ldif, out).run();
        assertEquals(0, run.exitCode(), run.err());
        BenchResult.Run r = JsonReport.read(out.resolve("result.json")).runs().get(0);
        assertEquals(1, r.operations().size());
        assertTrue(Files.readString(out.resolve("result.json")).contains("\"wrongExamples\""));
        return r.operations().get(0);
    }

    private static String mix(String operation) throws Exception {
        Path f = Files.createTempFile(dir, "mix", ".json");
        Files.writeString(f, "{\"name\":\"t\",\"operations\":[" + operation + "]}");
        return f.toString();
    }

    /** Every answer was wrong, none counted as a success, and the examples say why. */
    private static void allWrong(BenchResult.Operation op, String because) {
        assertTrue(op.wrongAnswers() > 10, "wrong " + op.wrongAnswers());
        assertEquals(0, op.ops(), "a wrong answer is never a success");
        assertFalse(op.wrongExamples().isEmpty());
        assertTrue(op.wrongExamples().size() <= 5);
        assertTrue(
                op.wrongExamples().get(0).contains(because), op.wrongExamples().toString());
    }

    @Test
    void theHonestServerGivesNoWrongAnswers() throws Exception {
        BenchResult.Operation op = bench("messaging", "honest");
        assertTrue(op.ops() > 10);
        assertEquals(0, op.wrongAnswers());
        assertEquals(List.of(), op.wrongExamples());
    }

    @Test
    void skewedDrawsAreRecordedAndANegativeSkewIsBadInput() throws Exception {
        Path out = dir.resolve("skewed");
        CliRun run = BenchArgs.of("messaging", server.port(), ldif, out)
                .with("--key-skew", "0.99")
                .run();
        assertEquals(0, run.exitCode(), run.err());
        BenchResult r = JsonReport.read(out.resolve("result.json"));
        assertEquals(0.99, r.config().keySkew(), 1e-12);
        assertEquals(0, r.runs().get(0).wrongAnswers());
        CliRun bad = BenchArgs.of("messaging", server.port(), ldif, out)
                .with("--key-skew", "-1")
                .run();
        assertEquals(2, bad.exitCode());
        assertTrue(bad.err().contains("--key-skew must be a number >= 0"), bad.err());
    }

    @Test
    void anotherPersonThanTheOneAskedForIsWrong() throws Exception {
        fault.set(Fault.WRONG_ENTRY);
        allWrong(bench("messaging", "wrong-entry"), ", got " + SOMEONE_ELSE);
    }

    @Test
    void aDroppedRequestedAttributeIsWrong() throws Exception {
        fault.set(Fault.DROP_MAIL);
        allWrong(bench("messaging", "drop-mail"), "lacks requested mail");
    }

    @Test
    void aGroupMissingAMemberIsWrong() throws Exception {
        fault.set(Fault.TRUNCATE_MEMBERS);
        allWrong(
                bench(
                        mix("{\"name\":\"expand-group\",\"share\":100,\"base\":\"${groupDn}\",\"scope\":\"base\","
                                + "\"filter\":\"(objectClass=*)\",\"attributes\":[\"member\"],\"expect\":\"one\"}"),
                        "truncated"),
                "members; missing e.g. cn=");
    }

    @Test
    void aWildcardHitNotMatchingThePrefixIsWrong() throws Exception {
        fault.set(Fault.STRAY_WILDCARD_HIT);
        allWrong(
                bench(
                        mix("{\"name\":\"wildcard\",\"share\":100,"
                                + "\"filter\":[\"(sn=${snPrefix}*)\",\"(givenName=${givenNamePrefix}*)\"],"
                                + "\"attributes\":[\"cn\"],\"expect\":\"some\"}"),
                        "stray"),
                "Qqqq, which does not start with");
    }

    @Test
    void noSuchObjectForARealBaseIsWrongAndOnlyRightForAnAbsentOne() throws Exception {
        fault.set(Fault.NO_SUCH_OBJECT);
        allWrong(
                bench(
                        mix("{\"name\":\"read\",\"share\":100,\"base\":\"${personDn}\",\"scope\":\"base\","
                                + "\"filter\":\"(objectClass=*)\",\"expect\":\"one\"}"),
                        "no-such-read"),
                "noSuchObject for base cn=");
        // A not-found lookup under a suffix the server does not hold is not a right "not found".
        allWrong(bench(notFound(), "no-such-subtree"), "noSuchObject for base dc=");
        fault.set(Fault.HONEST);
        BenchResult.Operation absent = bench(
                mix("{\"name\":\"read-absent\",\"share\":100,\"base\":\"${absentPersonDn}\",\"scope\":\"base\","
                        + "\"filter\":\"(objectClass=*)\",\"expect\":\"none\"}"),
                "absent");
        assertTrue(absent.ops() > 10);
        assertEquals(0, absent.wrongAnswers(), absent.wrongExamples().toString());
    }

    private static String notFound() throws Exception {
        return mix("{\"name\":\"not-found\",\"share\":100,\"base\":\"${suffix}\",\"scope\":\"sub\","
                + "\"filter\":\"(cn=${absentName})\",\"expect\":\"none\"}");
    }
}
