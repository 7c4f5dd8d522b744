package dev.larch.server.auth;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A client address that has failed a bind may have only {@code security.suspect-checks-per-address}
 * password checks in progress (until each answer is sent); more are answered busy without hashing,
 * whether their DNs exist or not.
 */
class SuspectChecksIT {
    private static final String PEOPLE = "ou=people," + TestServer.SUFFIX;
    private static final int CONNECTIONS = 10;

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree()
            .configured(c -> c.set("security.password-scheme", "SSHA256")
                    .set("security.bind-failure-delay-ms", 400)
                    .set("security.bind-failure-max-delay-ms", 1_600)
                    .set("security.suspect-checks-per-address", 2)
                    .set("security.suspect-checks-total", 4));

    @Test
    void aFailingAddressGetsTwoChecksInProgressAndTheRestAreAnsweredBusyWithoutHashing() throws Exception {
        try (LDAPConnection c = larch.server().anonymous()) {
            assertEquals(
                    ResultCode.INVALID_CREDENTIALS,
                    assertThrows(LDAPException.class, () -> c.bind("uid=nobody," + PEOPLE, "guess"))
                            .getResultCode());
        }
        List<RawLdapConnection> connections = new ArrayList<>();
        Map<ResultCode, Integer> answers = new HashMap<>();
        try {
            for (int i = 0; i < CONNECTIONS; i++) {
                connections.add(new RawLdapConnection(larch.server().port()));
            }
            for (int i = 0; i < CONNECTIONS; i++) {
                connections.get(i).send(RawLdapConnection.bind(1, "uid=ghost" + i + "," + PEOPLE, "guess-" + i));
            }
            for (RawLdapConnection c : connections) {
                ResultCode code =
                        ResultCode.valueOf(c.read().getBindResponseProtocolOp().getResultCode());
                answers.merge(code, 1, Integer::sum);
            }
        } finally {
            for (RawLdapConnection c : connections) {
                c.close();
            }
        }
        assertEquals(2, answers.getOrDefault(ResultCode.INVALID_CREDENTIALS, 0), answers.toString());
        assertEquals(CONNECTIONS - 2, answers.getOrDefault(ResultCode.BUSY, 0), answers.toString());
    }
}
