package dev.larch.server.auth;

import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ModifyRequest;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.controls.ProxiedAuthorizationV2RequestControl;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedRequest;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedResult;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Proxied authorization v2 (RFC 4370), governed by the ACI proxy right. */
class ProxiedAuthorizationIT {
    static final String PEOPLE = "ou=people," + TestServer.SUFFIX;
    static final String PORTAL = "uid=portal," + PEOPLE;
    static final String BEA = "uid=bea," + PEOPLE;
    static final String CAL = "uid=cal," + PEOPLE;

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree()
            .adding("dn: " + PORTAL + "\nobjectClass: inetOrgPerson\nuid: portal\ncn: Portal\nsn: P\n"
                    + "userPassword: portal-pw\n\n"
                    + "dn: " + BEA + "\nobjectClass: inetOrgPerson\nuid: bea\ncn: Bea\nsn: B\nuserPassword: bea-pw\n"
                    + "aci: (targetattr=\"*\")(version 3.0; acl \"the portal acts as bea\"; allow (proxy) userdn=\"ldap:///"
                    + PORTAL + "\";)\n\n"
                    + "dn: " + CAL + "\nobjectClass: inetOrgPerson\nuid: cal\ncn: Cal\nsn: C\nuserPassword: cal-pw\n");

    static String whoAmI(LDAPConnection c, String authzId) throws Exception {
        WhoAmIExtendedRequest request =
                new WhoAmIExtendedRequest(new Control[] {new ProxiedAuthorizationV2RequestControl(authzId)});
        WhoAmIExtendedResult result = (WhoAmIExtendedResult) c.processExtendedOperation(request);
        if (!result.getResultCode().equals(ResultCode.SUCCESS)) {
            throw new LDAPException(result);
        }
        return result.getAuthorizationID();
    }

    @Test
    void withTheProxyRightAnOperationRunsAsTheProxiedIdentity() throws Exception {
        try (LDAPConnection portal = larch.server().boundAs(PORTAL, "portal-pw")) {
            assertEquals("dn:" + BEA, whoAmI(portal, "dn:" + BEA));
            assertEquals("dn:" + BEA, whoAmI(portal, "u:bea"));
            // the connection's own identity is untouched
            assertEquals(
                    "dn:" + PORTAL,
                    ((WhoAmIExtendedResult) portal.processExtendedOperation(new WhoAmIExtendedRequest()))
                            .getAuthorizationID());
            // bea may write her own password (the built-in rules), the portal may not; as bea, it may
            ModifyRequest own =
                    new ModifyRequest(BEA, new Modification(ModificationType.REPLACE, "userPassword", "bea-2"));
            assertEquals(
                    ResultCode.INSUFFICIENT_ACCESS_RIGHTS,
                    assertThrows(LDAPException.class, () -> portal.modify(own)).getResultCode());
            own.addControl(new ProxiedAuthorizationV2RequestControl("dn:" + BEA));
            assertEquals(ResultCode.SUCCESS, portal.modify(own).getResultCode());
            try (LDAPConnection asBea = larch.server().boundAs(BEA, "bea-2")) {
                assertEquals(
                        "dn:" + BEA,
                        ((WhoAmIExtendedResult) asBea.processExtendedOperation(new WhoAmIExtendedRequest()))
                                .getAuthorizationID());
            }
        }
    }

    @Test
    void withoutTheProxyRightItIsAuthorizationDenied() throws Exception {
        try (LDAPConnection portal = larch.server().boundAs(PORTAL, "portal-pw")) {
            assertEquals(
                    ResultCode.AUTHORIZATION_DENIED,
                    assertThrows(LDAPException.class, () -> whoAmI(portal, "dn:" + CAL))
                            .getResultCode());
            assertEquals(
                    ResultCode.AUTHORIZATION_DENIED,
                    assertThrows(LDAPException.class, () -> whoAmI(portal, "dn:uid=nobody," + PEOPLE))
                            .getResultCode());
        }
        try (LDAPConnection cal = larch.server().boundAs(CAL, "cal-pw");
                LDAPConnection anonymous = larch.server().anonymous()) {
            assertEquals(
                    ResultCode.AUTHORIZATION_DENIED,
                    assertThrows(LDAPException.class, () -> whoAmI(cal, "dn:" + PORTAL))
                            .getResultCode());
            assertEquals(
                    ResultCode.AUTHORIZATION_DENIED,
                    assertThrows(LDAPException.class, () -> whoAmI(anonymous, "dn:" + BEA))
                            .getResultCode());
        }
    }

    @Test
    void theAdministratorMayActAsAnyone() throws Exception {
        try (LDAPConnection admin = larch.server().admin()) {
            assertEquals("dn:" + CAL, whoAmI(admin, "dn:" + CAL));
            assertEquals("", whoAmI(admin, ""));
            // acting as cal, the administrator has cal's rights, not its own
            ModifyRequest asCal =
                    new ModifyRequest(BEA, new Modification(ModificationType.REPLACE, "description", "by cal"));
            asCal.addControl(new ProxiedAuthorizationV2RequestControl("dn:" + CAL));
            assertEquals(
                    ResultCode.INSUFFICIENT_ACCESS_RIGHTS,
                    assertThrows(LDAPException.class, () -> admin.modify(asCal)).getResultCode());
        }
    }
}
