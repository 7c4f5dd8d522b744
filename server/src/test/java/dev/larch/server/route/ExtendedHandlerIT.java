package dev.larch.server.route;

import java.nio.charset.StandardCharsets;

import com.unboundid.ldap.sdk.ExtendedRequest;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedRequest;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedResult;
import dev.larch.server.auth.PasswordSchemes;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.apache.directory.api.ldap.extras.extended.whoAmI.WhoAmIRequestImpl;
import org.apache.directory.api.ldap.extras.extended.whoAmI.WhoAmIResponse;
import org.apache.directory.api.ldap.model.message.ExtendedResponse;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.ldap.client.api.LdapNetworkConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Extended operations over the wire: Who Am I (RFC 4532) through both client codecs; nothing else. */
class ExtendedHandlerIT {
    private static final String USER = "uid=who,ou=people," + TestServer.SUFFIX;

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree()
            .adding("dn: " + USER + "\nobjectClass: inetOrgPerson\nuid: who\ncn: who\nsn: who\n" + "userPassword: "
                    + new String(
                            PasswordSchemes.hash("SSHA256", "pw".getBytes(StandardCharsets.UTF_8)),
                            StandardCharsets.US_ASCII)
                    + "\n");

    private static String whoAmI(LDAPConnection c) throws Exception {
        WhoAmIExtendedResult r = (WhoAmIExtendedResult) c.processExtendedOperation(new WhoAmIExtendedRequest());
        assertEquals(ResultCode.SUCCESS, r.getResultCode());
        // RFC 4532 section 2.2: for the anonymous identity the value is absent or empty.
        return r.getAuthorizationID() == null ? "" : r.getAuthorizationID();
    }

    @Test
    void whoAmIIsEmptyForAnonymous() throws Exception {
        try (LDAPConnection c = larch.server().anonymous()) {
            assertEquals("", whoAmI(c));
        }
    }

    @Test
    void whoAmINamesTheAdministrator() throws Exception {
        try (LDAPConnection c = larch.server().admin()) {
            assertEquals("dn:cn=admin,dc=example,dc=com", whoAmI(c));
        }
    }

    @Test
    void whoAmINamesABoundEntry() throws Exception {
        try (LDAPConnection c = larch.server().boundAs(USER, "pw")) {
            assertEquals("dn:" + USER, whoAmI(c));
        }
    }

    @Test
    void apacheClientDecodesTheWhoAmIResponse() throws Exception {
        try (LdapNetworkConnection c = larch.server().apache()) {
            c.bind(TestServer.ADMIN_DN, TestServer.ADMIN_PASSWORD);
            ExtendedResponse response = c.extended(new WhoAmIRequestImpl());
            assertEquals(ResultCodeEnum.SUCCESS, response.getLdapResult().getResultCode());
            WhoAmIResponse whoAmI = assertInstanceOf(WhoAmIResponse.class, response);
            assertEquals("dn:cn=admin,dc=example,dc=com", whoAmI.getAuthzIdString());
        }
    }

    @Test
    void unknownExtendedOperationIsProtocolError() throws Exception {
        try (LDAPConnection c = larch.server().anonymous()) {
            LDAPException e = assertThrows(
                    LDAPException.class, () -> c.processExtendedOperation(new ExtendedRequest("1.2.3.4.5.6.7.8.9")));
            assertEquals(ResultCode.PROTOCOL_ERROR, e.getResultCode());
            // the OID the client sent is named (the codec loses it; the decoder reads it back)
            assertEquals("unsupported extended operation 1.2.3.4.5.6.7.8.9", e.getDiagnosticMessage());
            // the connection stays usable
            assertEquals("", whoAmI(c));
        }
        try (LdapNetworkConnection c = larch.server().apache()) {
            ExtendedResponse response = c.extended("1.2.3.4.5.6.7.8.9");
            assertEquals(ResultCodeEnum.PROTOCOL_ERROR, response.getLdapResult().getResultCode());
        }
    }
}
