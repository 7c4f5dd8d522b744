package dev.larch.server.auth;

import java.security.SecureRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedRequest;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedResult;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Password hashing runs on the worker pool, not on the event loop: with one I/O thread and one
 * worker, other requests are answered while a slow bind hashes, and a bind whose check needs the pool
 * finds it full and is answered busy. A right password stored as one digest ({SSHA256}) needs no
 * worker: it is answered even then. Proved by the order of answers, never by how long anything took.
 */
class BindWorkerPoolIT {
    private static final String PEOPLE = "ou=people," + TestServer.SUFFIX;
    private static final String SLOW_DN = "uid=slow," + PEOPLE;
    private static final String FAST_DN = "uid=fast," + PEOPLE;
    /** Enough PBKDF2 rounds for a bind to hash for about a second: far longer than a search round trip. */
    private static final int SLOW_ITERATIONS = 3_000_000;

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree()
            .configured(c -> c.set("listen.io-threads", 1)
                    .set("limits.worker-threads", 1)
                    .set("limits.worker-queue", 0)
                    .set("limits.apply-to-admin", true)
                    .set("security.max-password-iterations", 10_000_000)
                    // the fast person's {SSHA256} stays as it is: a re-hash would need the worker
                    .set("security.rehash-on-bind", false))
            .adding(person(
                            "slow",
                            "{PBKDF2-SHA256}"
                                    + new Pbkdf2Scheme("PBKDF2-SHA256", "HmacSHA256")
                                            .encode("slow-pw".getBytes(UTF_8), new SecureRandom(), SLOW_ITERATIONS))
                    + person("fast", new String(PasswordSchemes.hash("SSHA256", "fast-pw".getBytes(UTF_8)), UTF_8)));

    private static String person(String uid, String userPassword) {
        return "dn: uid=" + uid + "," + PEOPLE + "\nobjectClass: inetOrgPerson\nuid: " + uid + "\ncn: " + uid + "\nsn: "
                + uid + "\nuserPassword: " + userPassword + "\n\n";
    }

    /**
     * Sends the slow bind and, in the same write, a search; returns once the search is answered,
     * which the event loop can only do while the bind is still hashing on the worker.
     */
    private static RawLdapConnection slowBindUnderWay() throws Exception {
        RawLdapConnection raw = new RawLdapConnection(larch.server().port());
        raw.send(RawLdapConnection.bind(1, SLOW_DN, "slow-pw"), RawLdapConnection.baseSearch(2, PEOPLE));
        LDAPMessage first = raw.read();
        assertEquals(
                2, first.getMessageID(), () -> "the search must be answered before the slow bind; first came " + first);
        assertEquals(LDAPMessage.PROTOCOL_OP_TYPE_SEARCH_RESULT_ENTRY, first.getProtocolOpType());
        LDAPMessage done = raw.read();
        assertEquals(LDAPMessage.PROTOCOL_OP_TYPE_SEARCH_RESULT_DONE, done.getProtocolOpType());
        assertEquals(
                ResultCode.SUCCESS_INT_VALUE,
                done.getSearchResultDoneProtocolOp().getResultCode());
        return raw;
    }

    private static void slowBindSucceeds(RawLdapConnection raw) throws LDAPException {
        LDAPMessage bind = raw.read();
        assertEquals(1, bind.getMessageID());
        assertEquals(
                ResultCode.SUCCESS_INT_VALUE, bind.getBindResponseProtocolOp().getResultCode());
    }

    @Test
    void anotherClientIsAnsweredWhileABindHashes() throws Exception {
        try (RawLdapConnection raw = slowBindUnderWay();
                LDAPConnection other = larch.server().anonymous()) {
            CompletableFuture<LDAPMessage> bindAnswer = CompletableFuture.supplyAsync(() -> {
                try {
                    return raw.read();
                } catch (LDAPException e) {
                    throw new IllegalStateException(e);
                }
            });
            SearchResult r = other.search(PEOPLE, SearchScope.BASE, "(objectClass=*)", "1.1");
            assertEquals(1, r.getEntryCount());
            assertFalse(bindAnswer.isDone(), "the other client's search waited for the slow bind");
            LDAPMessage bind = bindAnswer.get(60, TimeUnit.SECONDS);
            assertEquals(
                    ResultCode.SUCCESS_INT_VALUE,
                    bind.getBindResponseProtocolOp().getResultCode());
        }
    }

    @Test
    void aBindFindingThePoolFullIsAnsweredBusy() throws Exception {
        try (RawLdapConnection raw = slowBindUnderWay();
                LDAPConnection other = larch.server().anonymous()) {
            // a wrong password is always checked on the worker (with the configured scheme's cost)
            LDAPException busy = assertThrows(LDAPException.class, () -> other.bind(FAST_DN, "wrong-pw"));
            assertEquals(ResultCode.BUSY, busy.getResultCode());
            assertTrue(busy.getDiagnosticMessage().contains("busy"), busy.getDiagnosticMessage());
            slowBindSucceeds(raw);
            // the refused client is not penalized, and the slow bind's answer came only once its
            // place in the pool was free: the next check is admitted at once
            LDAPException checked = assertThrows(LDAPException.class, () -> other.bind(FAST_DN, "wrong-pw"));
            assertEquals(ResultCode.INVALID_CREDENTIALS, checked.getResultCode());
        }
    }

    @Test
    void aRightPasswordStoredAsOneDigestIsAnsweredWhileThePoolIsFull() throws Exception {
        try (RawLdapConnection raw = slowBindUnderWay();
                LDAPConnection other = larch.server().anonymous()) {
            assertEquals(ResultCode.SUCCESS, other.bind(FAST_DN, "fast-pw").getResultCode());
            assertEquals(
                    "dn:" + FAST_DN,
                    ((WhoAmIExtendedResult) other.processExtendedOperation(new WhoAmIExtendedRequest()))
                            .getAuthorizationID());
            slowBindSucceeds(raw);
        }
    }
}
