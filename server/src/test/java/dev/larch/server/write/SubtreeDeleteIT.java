package dev.larch.server.write;

import com.unboundid.ldap.sdk.DeleteRequest;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.controls.SubtreeDeleteRequestControl;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.Ldif;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The subtree delete control: the whole subtree in one transaction, within the look-through limit, or nothing. */
class SubtreeDeleteIT {
    static final int LOOK_THROUGH = 50;

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree()
            .configured(c -> c.set("limits.size-limit", 0)
                    .set("limits.time-limit-seconds", 0)
                    .set("limits.look-through-limit", LOOK_THROUGH)
                    .set("limits.apply-to-admin", true));

    static DeleteRequest subtreeDelete(String dn) {
        DeleteRequest r = new DeleteRequest(dn);
        r.addControl(new SubtreeDeleteRequestControl(true));
        return r;
    }

    @Test
    void deletesTheEntryAndEverythingBelowIt() throws Exception {
        String unit = "ou=doomed," + TestServer.SUFFIX;
        larch.server().add(Ldif.bulkUnit(unit, 20, i -> "doomed " + i));
        larch.server().add("dn: ou=nested,uid=u0003," + unit + "\nobjectClass: organizationalUnit\nou: nested\n");
        try (LDAPConnection c = larch.server().admin()) {
            LDAPException leafOnly = assertThrows(LDAPException.class, () -> c.delete(unit));
            assertEquals(ResultCode.NOT_ALLOWED_ON_NONLEAF, leafOnly.getResultCode());
            assertTrue(leafOnly.getDiagnosticMessage().contains("subtree delete"), leafOnly.getDiagnosticMessage());

            assertEquals(ResultCode.SUCCESS, c.delete(subtreeDelete(unit)).getResultCode());
            assertNull(c.getEntry(unit));
            assertNull(c.getEntry("uid=u0003," + unit));
            assertNull(c.getEntry("ou=nested,uid=u0003," + unit));
            assertNull(c.getEntry("uid=u0019," + unit));
            // the name is free again
            larch.server().add("dn: " + unit + "\nobjectClass: organizationalUnit\nou: doomed\n");
            assertNotNull(c.getEntry(unit));
        }
    }

    @Test
    void aSubtreeLargerThanTheLookThroughLimitIsRefusedWhole() throws Exception {
        String unit = "ou=toolarge," + TestServer.SUFFIX;
        larch.server().add(Ldif.bulkUnit(unit, LOOK_THROUGH + 5, i -> "large " + i));
        try (LDAPConnection c = larch.server().admin()) {
            LDAPException e = assertThrows(LDAPException.class, () -> c.delete(subtreeDelete(unit)));
            assertEquals(ResultCode.ADMIN_LIMIT_EXCEEDED, e.getResultCode());
            assertTrue(e.getDiagnosticMessage().contains("nothing was deleted"), e.getDiagnosticMessage());
            assertNotNull(c.getEntry(unit));
            assertNotNull(c.getEntry("uid=u0000," + unit));
            assertNotNull(c.getEntry("uid=u0054," + unit));
        }
    }

    @Test
    void anonymousMayNotDeleteASubtree() throws Exception {
        String unit = "ou=guarded," + TestServer.SUFFIX;
        larch.server().add(Ldif.bulkUnit(unit, 3, i -> "guarded " + i));
        try (LDAPConnection c = larch.server().anonymous()) {
            LDAPException e = assertThrows(LDAPException.class, () -> c.delete(subtreeDelete(unit)));
            assertEquals(ResultCode.INSUFFICIENT_ACCESS_RIGHTS, e.getResultCode());
        }
        try (LDAPConnection c = larch.server().admin()) {
            assertEquals(
                    4, c.search(unit, SearchScope.SUB, "(objectClass=*)", "1.1").getEntryCount());
        }
    }
}
