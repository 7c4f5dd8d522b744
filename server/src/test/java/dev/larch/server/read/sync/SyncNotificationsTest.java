package dev.larch.server.read.sync;

import java.util.concurrent.atomic.AtomicLong;

import dev.larch.server.csn.Csn;
import dev.larch.server.csn.CsnVector;
import dev.larch.server.directory.DirectoryChange;
import dev.larch.server.sync.SyncCookie;
import dev.larch.server.sync.SyncRequest;
import org.apache.directory.api.ldap.model.message.controls.ChangeType;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which changes the persist stage sends: none back to the server they came from, none unstamped. */
class SyncNotificationsTest {
    private static final int OUR_SID = 1;

    private static DirectoryChange stampedBy(int sid) {
        return new DirectoryChange(
                ChangeType.MODIFY,
                null,
                null,
                null,
                Csn.of(1_800_000_000_000_000L, 0, sid, 0).toBytes());
    }

    private static SyncNotifications to(SyncCookie cookie) {
        return new SyncNotifications(
                OUR_SID,
                cookie,
                new SyncProgress("", 1, SyncRequest.Mode.REFRESH_AND_PERSIST, new AtomicLong()),
                () -> {});
    }

    @Test
    void aChangeFromThePeersOwnServerIsNotSentBackToIt() {
        SyncNotifications peer2 = to(new SyncCookie(7, 2, CsnVector.EMPTY));
        assertFalse(peer2.wants(stampedBy(2)), "server 2's own change");
        assertTrue(peer2.wants(stampedBy(1)));
        assertTrue(peer2.wants(stampedBy(3)), "a third server's change reaches it through us");
    }

    @Test
    void aCookieEchoingOurOwnServerIdOrNamingNoneGetsEveryChange() {
        assertTrue(to(new SyncCookie(7, OUR_SID, CsnVector.EMPTY)).wants(stampedBy(OUR_SID)));
        assertTrue(to(new SyncCookie(7, SyncCookie.NO_SID, CsnVector.EMPTY)).wants(stampedBy(2)));
        assertTrue(to(null).wants(stampedBy(2)));
    }

    @Test
    void anEntryMovedOnlyBecauseAnAncestorWasRenamedIsNotSent() {
        assertFalse(to(null).wants(new DirectoryChange(ChangeType.MODDN, null, "uid=x,ou=old", null, null)));
    }
}
