package dev.larch.server.route;

import java.util.Arrays;

import com.unboundid.ldap.sdk.CompareRequest;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ModifyRequest;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.controls.DontUseCopyRequestControl;
import com.unboundid.ldap.sdk.controls.PermissiveModifyRequestControl;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The controls that need no state: permissive modify and don't-use-copy, where they apply and where not. */
class SimpleControlsIT {
    static final String PERSON = "uid=lenient,ou=people," + TestServer.SUFFIX;

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree()
            .adding("dn: " + PERSON + "\nobjectClass: inetOrgPerson\nuid: lenient\ncn: Len\nsn: Ient\n"
                    + "mail: len@example.com\n");

    @Test
    void permissiveModifyForgivesAddingAnExistingValueAndDeletingAMissingOne() throws Exception {
        try (LDAPConnection c = larch.server().admin()) {
            ModifyRequest strict = new ModifyRequest(
                    PERSON, new Modification(ModificationType.ADD, "mail", "len@example.com", "ient@example.com"));
            assertEquals(
                    ResultCode.ATTRIBUTE_OR_VALUE_EXISTS,
                    assertThrows(LDAPException.class, () -> c.modify(strict)).getResultCode());

            ModifyRequest permissive = new ModifyRequest(
                    PERSON,
                    new Modification(ModificationType.ADD, "mail", "len@example.com", "ient@example.com"),
                    new Modification(ModificationType.DELETE, "description", "never there"),
                    new Modification(ModificationType.DELETE, "cn", "No Such Name"));
            permissive.addControl(new PermissiveModifyRequestControl(true));
            assertEquals(ResultCode.SUCCESS, c.modify(permissive).getResultCode());
            String[] mails = c.getEntry(PERSON, "mail").getAttributeValues("mail");
            Arrays.sort(mails);
            assertArrayEquals(new String[] {"ient@example.com", "len@example.com"}, mails);

            // Not a search control: critical on a search it is refused.
            SearchRequest search = new SearchRequest(PERSON, SearchScope.BASE, "(objectClass=*)");
            search.addControl(new PermissiveModifyRequestControl(true));
            assertEquals(
                    ResultCode.UNAVAILABLE_CRITICAL_EXTENSION,
                    assertThrows(LDAPException.class, () -> c.search(search)).getResultCode());
        }
    }

    @Test
    void dontUseCopyIsHonouredOnReadsAndRefusedOnWrites() throws Exception {
        try (LDAPConnection c = larch.server().anonymous()) {
            SearchRequest search = new SearchRequest(PERSON, SearchScope.BASE, "(objectClass=*)", "cn");
            search.addControl(new DontUseCopyRequestControl());
            assertEquals(1, c.search(search).getEntryCount());
            CompareRequest compare = new CompareRequest(PERSON, "cn", "Len");
            compare.addControl(new DontUseCopyRequestControl());
            assertTrue(c.compare(compare).compareMatched());
            assertTrue(c.getRootDSE().supportsControl(DontUseCopyRequestControl.DONT_USE_COPY_REQUEST_OID));
        }
        try (LDAPConnection c = larch.server().admin()) {
            ModifyRequest modify = new ModifyRequest(PERSON, new Modification(ModificationType.REPLACE, "sn", "Other"));
            modify.addControl(new DontUseCopyRequestControl());
            assertEquals(
                    ResultCode.UNAVAILABLE_CRITICAL_EXTENSION,
                    assertThrows(LDAPException.class, () -> c.modify(modify)).getResultCode());
        }
    }
}
