package dev.larch.server.auth;

import java.util.concurrent.TimeUnit;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Failed binds are answered late, per DN, without holding up anyone else. Only lower bounds on time
 * are asserted; that another bind is not held back is shown by the order of answers.
 *
 * <p>All tests share 127.0.0.1; an address alone is never delayed, and the account's delay from any
 * address starts past {@link FailedBindDelays#ACCOUNT_ALLOWANCE}
 * failures: the tests of this class fail fewer binds than that in total.
 */
class FailedBindDelaysIT {
    private static final String PEOPLE = "ou=people," + TestServer.SUFFIX;
    private static final int FIRST_DELAY_MS = 400;
    private static final int MAX_DELAY_MS = 1_600;

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree()
            .configured(c -> c.set("security.password-scheme", "SSHA256")
                    .set("security.bind-failure-delay-ms", FIRST_DELAY_MS)
                    .set("security.bind-failure-max-delay-ms", MAX_DELAY_MS))
            .adding(person("alice") + person("bob") + person("carol"));

    private static String person(String uid) {
        return "dn: uid=" + uid + "," + PEOPLE + "\nobjectClass: inetOrgPerson\nuid: " + uid + "\ncn: " + uid + "\nsn: "
                + uid + "\nuserPassword: "
                + new String(PasswordSchemes.hash("SSHA", ("pw-" + uid).getBytes(UTF_8)), UTF_8)
                + "\n\n";
    }

    private static ResultCode bindFails(LDAPConnection c, String dn, String password) {
        return assertThrows(LDAPException.class, () -> c.bind(dn, password)).getResultCode();
    }

    @Test
    void theThirdFailureOnADnIsAnsweredNoSoonerThanTheConfiguredDelay() throws Exception {
        String alice = "uid=alice," + PEOPLE;
        try (LDAPConnection c = larch.server().anonymous()) {
            assertEquals(ResultCode.INVALID_CREDENTIALS, bindFails(c, alice, "guess-1"));
            assertEquals(ResultCode.INVALID_CREDENTIALS, bindFails(c, alice, "guess-2"));
            long start = System.nanoTime();
            assertEquals(ResultCode.INVALID_CREDENTIALS, bindFails(c, alice, "guess-3"));
            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(tookMillis >= FIRST_DELAY_MS, "third failure answered after " + tookMillis + " ms");
            // the right password still works, and clears alice's record
            assertEquals(ResultCode.SUCCESS, c.bind(alice, "pw-alice").getResultCode());
        }
    }

    @Test
    void aCorrectBindOfAnotherDnIsNotHeldBehindAFailingOne() throws Exception {
        String bob = "uid=bob," + PEOPLE;
        try (LDAPConnection c = larch.server().anonymous();
                RawLdapConnection guesser = new RawLdapConnection(larch.server().port());
                LDAPConnection carol = larch.server().anonymous()) {
            assertEquals(ResultCode.INVALID_CREDENTIALS, bindFails(c, bob, "guess-1"));
            assertEquals(ResultCode.INVALID_CREDENTIALS, bindFails(c, bob, "guess-2"));
            // bob's third failure will be answered after the maximum delay
            guesser.send(RawLdapConnection.bind(1, bob, "guess-3"));
            // meanwhile carol binds at once, from the same address
            assertEquals(
                    ResultCode.SUCCESS,
                    carol.bind("uid=carol," + PEOPLE, "pw-carol").getResultCode());
            assertEquals(0, guesser.available(), "bob's failure was answered before carol's success");
            LDAPMessage answer = guesser.read();
            assertEquals(
                    ResultCode.INVALID_CREDENTIALS_INT_VALUE,
                    answer.getBindResponseProtocolOp().getResultCode());
        }
    }
}
