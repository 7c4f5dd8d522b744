package dev.larch.server.read;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPSearchException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.server.testing.LarchServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static dev.larch.server.read.SearchLimitsIT.BULK;
import static dev.larch.server.read.SearchLimitsIT.ENTRIES;
import static dev.larch.server.read.SearchLimitsIT.LOOK_THROUGH_LIMIT;
import static dev.larch.server.read.SearchLimitsIT.SIZE_LIMIT;
import static dev.larch.server.read.SearchLimitsIT.all;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** With {@code limits.apply-to-admin = false}, the administrator alone is exempt from the server's limits. */
class AdminExemptFromSearchLimitsIT {

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree()
            .configured(c -> c.set("limits.size-limit", SIZE_LIMIT)
                    .set("limits.time-limit-seconds", 0)
                    .set("limits.look-through-limit", LOOK_THROUGH_LIMIT)
                    .set("limits.apply-to-admin", false))
            .importing(SearchLimitsIT.bulk());

    @Test
    void administratorIsExemptFromSizeAndLookThroughLimits() throws Exception {
        try (LDAPConnection c = larch.server().admin()) {
            assertEquals(ENTRIES, c.search(all(0)).getEntryCount());
            assertEquals(
                    0,
                    c.search(BULK, SearchScope.SUB, "(description=*needle*)", "1.1")
                            .getEntryCount());
        }
    }

    @Test
    void everyoneElseIsStillHeldToThem() throws Exception {
        try (LDAPConnection c = larch.server().anonymous()) {
            LDAPSearchException e = assertThrows(LDAPSearchException.class, () -> c.search(all(0)));
            assertEquals(ResultCode.SIZE_LIMIT_EXCEEDED, e.getResultCode());
            assertEquals(SIZE_LIMIT, e.getEntryCount());
        }
    }

    @Test
    void theAdministratorsOwnRequestLimitStillApplies() throws Exception {
        try (LDAPConnection c = larch.server().admin()) {
            LDAPSearchException e = assertThrows(LDAPSearchException.class, () -> c.search(all(ENTRIES - 1)));
            assertEquals(ResultCode.SIZE_LIMIT_EXCEEDED, e.getResultCode());
            assertEquals(ENTRIES - 1, e.getEntryCount());
        }
    }
}
