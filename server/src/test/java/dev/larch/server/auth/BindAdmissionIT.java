package dev.larch.server.auth;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedRequest;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Binds sent in parallel, each on its own connection, cannot outrun an account's lockout: the
 * failures are counted as the binds are admitted, so a right guess inside a burst of wrong ones is
 * refused once the account has locked. Over raw sockets, so that every bind is on the wire before
 * the first answer comes back.
 */
class BindAdmissionIT {
    private static final String PEOPLE = "ou=people," + TestServer.SUFFIX;
    private static final String POLICY = "cn=lock3,ou=policies," + TestServer.SUFFIX;
    private static final int BURST = 200;
    /**
     * Where the right guess goes in the burst: well after the third wrong one. Sent in order, it
     * arrives within the 64 that may wait and is refused by the lock; on a machine with many event
     * loops the binds are admitted out of order and it may arrive past them and be refused busy.
     * Either way it is refused; it can be checked only if it is admitted among the first three.
     */
    private static final int RIGHT_AT = 60;

    @RegisterExtension
    static final LarchServerExtension larch =
            LarchServerExtension.withBaseTree().adding("""
                    dn: ou=policies,dc=example,dc=com
                    objectClass: organizationalUnit
                    ou: policies

                    dn: cn=lock3,ou=policies,dc=example,dc=com
                    objectClass: device
                    objectClass: pwdPolicy
                    cn: lock3
                    pwdAttribute: userPassword
                    pwdLockout: TRUE
                    pwdMaxFailure: 3
                    pwdLockoutDuration: 0

                    """ + person("burst") + person("calm"));

    private static String person(String uid) {
        return "dn: uid=" + uid + "," + PEOPLE + "\nobjectClass: inetOrgPerson\nuid: " + uid + "\ncn: " + uid + "\nsn: "
                + uid + "\nuserPassword: "
                + new String(PasswordSchemes.hash("PBKDF2-SHA256", ("pw-" + uid).getBytes(UTF_8)), UTF_8)
                + "\npwdPolicySubentry: " + POLICY + "\n\n";
    }

    @Test
    void aRightGuessInsideAParallelBurstOfWrongOnesIsRefusedOnceTheAccountLocks() throws Exception {
        String dn = "uid=burst," + PEOPLE;
        Map<ResultCode, Integer> wrong = new HashMap<>();
        ResultCode right = burst(dn, "pw-burst", BURST, RIGHT_AT, wrong);

        assertTrue(
                ResultCode.INVALID_CREDENTIALS.equals(right) || ResultCode.BUSY.equals(right),
                "the right guess inside the burst: " + right + "; wrong ones: " + wrong);
        assertNull(wrong.get(ResultCode.SUCCESS), wrong.toString());
        // The account is locked for good (pwdLockoutDuration 0), durably, after exactly 3 failures.
        try (LDAPConnection c = larch.server().anonymous()) {
            assertEquals(
                    ResultCode.INVALID_CREDENTIALS,
                    assertThrows(LDAPException.class, () -> c.bind(dn, "pw-burst"))
                            .getResultCode());
        }
        Entry stored = awaitLock(dn);
        assertEquals(3, stored.getAttributeValues("pwdFailureTime").length, stored.toLDIFString());
    }

    @Test
    void theAdministratorLocksAfterItsMaxFailuresEvenInsideABurstAndARestartClearsIt() throws Exception {
        try {
            Map<ResultCode, Integer> wrong = new HashMap<>();
            // As for the account: far behind the fifth failure, so that no admission order checks it.
            ResultCode right = burst(TestServer.ADMIN_DN, TestServer.ADMIN_PASSWORD, 100, RIGHT_AT, wrong);
            assertTrue(
                    ResultCode.INVALID_CREDENTIALS.equals(right) || ResultCode.BUSY.equals(right),
                    "the right admin password inside the burst: " + right + "; wrong ones: " + wrong);
            assertNull(wrong.get(ResultCode.SUCCESS), wrong.toString());
            LDAPException refused =
                    assertThrows(LDAPException.class, () -> larch.server().admin());
            assertEquals(ResultCode.INVALID_CREDENTIALS, refused.getResultCode());
        } finally {
            larch.server().restart();
        }
        try (LDAPConnection admin = larch.server().admin()) {
            assertEquals(
                    ResultCode.SUCCESS,
                    admin.processExtendedOperation(new WhoAmIExtendedRequest()).getResultCode());
        }
    }

    @Test
    void anAccountWithoutFailuresStillBindsInParallel() throws Exception {
        String dn = "uid=calm," + PEOPLE;
        List<LDAPConnection> connections = new ArrayList<>();
        try {
            for (int i = 0; i < 8; i++) {
                connections.add(larch.server().anonymous());
            }
            List<Thread> threads = new ArrayList<>();
            List<ResultCode> codes = Collections.synchronizedList(new ArrayList<>());
            for (LDAPConnection c : connections) {
                Thread t = Thread.ofVirtual().start(() -> {
                    try {
                        codes.add(c.bind(dn, "pw-calm").getResultCode());
                    } catch (LDAPException e) {
                        codes.add(e.getResultCode());
                    }
                });
                threads.add(t);
            }
            for (Thread t : threads) {
                t.join();
            }
            assertEquals(8, codes.stream().filter(ResultCode.SUCCESS::equals).count(), codes.toString());
        } finally {
            connections.forEach(LDAPConnection::close);
        }
    }

    /**
     * Sends {@code count} binds of {@code dn}, one per connection, all before reading any answer:
     * wrong passwords, but {@code password} at {@code rightAt}.
     *
     * @param wrong counts the answers to the wrong ones by result code
     * @return the answer to the right one
     */
    private static ResultCode burst(String dn, String password, int count, int rightAt, Map<ResultCode, Integer> wrong)
            throws Exception {
        List<RawLdapConnection> connections = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                connections.add(new RawLdapConnection(larch.server().port()));
            }
            for (int i = 0; i < count; i++) {
                connections.get(i).send(RawLdapConnection.bind(1, dn, i == rightAt ? password : "guess-" + i));
            }
            ResultCode right = null;
            for (int i = 0; i < count; i++) {
                LDAPMessage answer = connections.get(i).read();
                ResultCode code =
                        ResultCode.valueOf(answer.getBindResponseProtocolOp().getResultCode());
                if (i == rightAt) {
                    right = code;
                } else {
                    wrong.merge(code, 1, Integer::sum);
                }
            }
            return right;
        } finally {
            for (RawLdapConnection c : connections) {
                c.close();
            }
        }
    }

    /** The entry once its lock is written (the state is written through the write queue). */
    private static Entry awaitLock(String dn) throws Exception {
        long until = System.nanoTime() + 10_000_000_000L;
        while (true) {
            Entry e;
            try (LDAPConnection admin = larch.server().admin()) {
                e = admin.getEntry(dn, "pwdAccountLockedTime", "pwdFailureTime");
            }
            assertNotNull(e);
            if (e.hasAttribute("pwdAccountLockedTime")) {
                return e;
            }
            assertTrue(System.nanoTime() < until, "no lock written: " + e.toLDIFString());
            Thread.sleep(20);
        }
    }
}
