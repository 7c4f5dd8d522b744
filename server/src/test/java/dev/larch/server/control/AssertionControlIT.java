package dev.larch.server.control;

import com.unboundid.ldap.sdk.CompareRequest;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.DeleteRequest;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ModifyDNRequest;
import com.unboundid.ldap.sdk.ModifyRequest;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.controls.AssertionRequestControl;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The assertion control (RFC 4528): each operation goes ahead only when its filter holds for the target. */
class AssertionControlIT {
    static final String DN = "uid=asserted,ou=people," + TestServer.SUFFIX;

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree()
            .adding("dn: " + DN + "\nobjectClass: inetOrgPerson\nuid: asserted\ncn: Asserted\nsn: Version1\n"
                    + "userPassword: secret-one\n");

    static AssertionRequestControl asserting(String filter) throws Exception {
        return new AssertionRequestControl(filter, true);
    }

    @Test
    void aFalseAssertionRefusesEachOperationWithAssertionFailedAndChangesNothing() throws Exception {
        try (LDAPConnection c = larch.server().admin()) {
            Control wrong = asserting("(sn=Version0)");
            ModifyRequest modify = new ModifyRequest(DN, new Modification(ModificationType.REPLACE, "sn", "Version2"));
            modify.addControl(wrong);
            assertEquals(
                    ResultCode.ASSERTION_FAILED,
                    assertThrows(LDAPException.class, () -> c.modify(modify)).getResultCode());
            assertEquals("Version1", c.getEntry(DN, "sn").getAttributeValue("sn"));

            DeleteRequest delete = new DeleteRequest(DN);
            delete.addControl(wrong);
            assertEquals(
                    ResultCode.ASSERTION_FAILED,
                    assertThrows(LDAPException.class, () -> c.delete(delete)).getResultCode());
            ModifyDNRequest rename = new ModifyDNRequest(DN, "uid=renamed", true);
            rename.addControl(wrong);
            assertEquals(
                    ResultCode.ASSERTION_FAILED,
                    assertThrows(LDAPException.class, () -> c.modifyDN(rename)).getResultCode());
            CompareRequest compare = new CompareRequest(DN, "cn", "Asserted");
            compare.addControl(wrong);
            assertEquals(
                    ResultCode.ASSERTION_FAILED,
                    assertThrows(LDAPException.class, () -> c.compare(compare)).getResultCode());
            SearchRequest search = new SearchRequest(DN, SearchScope.BASE, "(objectClass=*)");
            search.addControl(wrong);
            assertEquals(
                    ResultCode.ASSERTION_FAILED,
                    assertThrows(LDAPException.class, () -> c.search(search)).getResultCode());
            assertNotNull(c.getEntry(DN));
        }
    }

    @Test
    void aTrueAssertionLetsTheOperationThroughAsOptimisticLocking() throws Exception {
        try (LDAPConnection c = larch.server().admin()) {
            ModifyRequest modify = new ModifyRequest(DN, new Modification(ModificationType.REPLACE, "cn", "Asserted"));
            modify.addControl(asserting("(&(sn=Version1)(uid=asserted))"));
            assertEquals(ResultCode.SUCCESS, c.modify(modify).getResultCode());
        }
    }

    @Test
    void anAssertionOnAnAttributeTheClientMayNotSearchIsNoOracle() throws Exception {
        try (LDAPConnection c = larch.server().boundAs(DN, "secret-one")) {
            // userPassword is hidden by the built-in rules: its filter is Undefined, so never true.
            SearchRequest search = new SearchRequest(DN, SearchScope.BASE, "(objectClass=*)");
            search.addControl(asserting("(userPassword=secret-one)"));
            assertEquals(
                    ResultCode.ASSERTION_FAILED,
                    assertThrows(LDAPException.class, () -> c.search(search)).getResultCode());
        }
    }
}
