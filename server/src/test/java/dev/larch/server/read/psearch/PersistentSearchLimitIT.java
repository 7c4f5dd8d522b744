package dev.larch.server.read.psearch;

import java.util.EnumSet;
import java.util.concurrent.TimeUnit;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.controls.PersistentSearchChangeType;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code limits.max-persistent-searches}: one more is refused, naming the key; an ended one frees its place. */
class PersistentSearchLimitIT {
    private static final int MAX = 2;
    private static final String PEOPLE = "ou=people," + TestServer.SUFFIX;
    private static final EnumSet<PersistentSearchChangeType> ALL = EnumSet.allOf(PersistentSearchChangeType.class);

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree()
            .configured(c -> c.set("limits.max-persistent-searches", MAX).set("limits.persistent-search-queue", 100));

    private static Notifications watch(LDAPConnection c) throws Exception {
        return Notifications.start(c, PEOPLE, SearchScope.BASE, "(objectClass=*)", ALL, true);
    }

    @Test
    void onePastTheLimitIsRefusedAndAnAbandonedOneFreesItsPlace() throws Exception {
        try (LDAPConnection a = larch.server().admin();
                LDAPConnection b = larch.server().anonymous()) {
            Notifications first = watch(a);
            Notifications second = watch(a);
            a.getRootDSE(); // answered after both were started: their places are taken

            SearchResult refused = watch(b).done.get(10, TimeUnit.SECONDS);
            assertEquals(ResultCode.ADMIN_LIMIT_EXCEEDED, refused.getResultCode());
            assertTrue(
                    refused.getDiagnosticMessage().contains("limits.max-persistent-searches"),
                    refused.getDiagnosticMessage());

            a.abandon(first.id);
            Notifications third = watch(a); // after the abandon on the same connection: a place is free
            a.modify(PEOPLE, new Modification(ModificationType.REPLACE, "description", "seen by two"));
            assertEquals(PEOPLE, third.next().getDN());
            assertEquals(PEOPLE, second.next().getDN());
            first.assertQuiet(200);

            assertEquals(
                    ResultCode.ADMIN_LIMIT_EXCEEDED,
                    watch(b).done.get(10, TimeUnit.SECONDS).getResultCode(),
                    "still full: the abandoned place was taken again");
        }
    }
}
