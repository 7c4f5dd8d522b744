package dev.larch.server.sync;

import java.util.ArrayList;
import java.util.List;

import dev.larch.server.entry.EntryUuids;
import org.apache.directory.api.ldap.extras.controls.syncrepl.syncDone.SyncDoneValue;
import org.apache.directory.api.ldap.extras.controls.syncrepl.syncDone.SyncDoneValueImpl;
import org.apache.directory.api.ldap.extras.controls.syncrepl.syncState.SyncStateValue;
import org.apache.directory.api.ldap.extras.controls.syncrepl.syncState.SyncStateValueImpl;
import org.apache.directory.api.ldap.extras.intermediate.syncrepl.SyncInfoValue;
import org.apache.directory.api.ldap.extras.intermediate.syncrepl.SyncInfoValueImpl;
import org.apache.directory.api.ldap.extras.intermediate.syncrepl.SynchronizationInfoEnum;

/**
 * What a provider sends in a sync search (RFC 4533 sections 2.3–2.5): the Sync State control on each
 * entry, the Sync Done control on the SearchResultDone and the Sync Info intermediate response in its
 * four choices.
 *
 * <p>They are the Apache LDAP API's value classes, whose factories the standalone codec registers (the
 * two response controls and the intermediate response, checked by this package's tests), so the
 * server's encoder ({@code LdapEncoder}) writes them as any other message; the tests decode what it
 * writes with the UnboundID SDK. A null cookie is left out. Stateless and thread-safe; each call returns a
 * new object.
 */
public final class SyncResponses {

    /** The most UUIDs one syncIdSet carries here; slapd sends batches of this size. */
    public static final int MAX_SYNC_ID_SET = SyncIdSetBatcher.BATCH_SIZE;

    private SyncResponses() {}

    /**
     * The Sync State control for an entry (or, for {@link SyncState#DELETE} and {@link SyncState#PRESENT}
     * in the persist stage, its DN only).
     *
     * @param uuid the 16 bytes of the entry's entryUUID
     * @param cookie the state after this change; null for none (the refresh stage)
     * @throws IllegalArgumentException when {@code uuid} is not 16 bytes long
     */
    public static SyncStateValue state(SyncState state, byte[] uuid, SyncCookie cookie) {
        EntryUuids.checkLength(uuid);
        SyncStateValueImpl control = new SyncStateValueImpl(false);
        control.setSyncStateType(state.apache());
        control.setEntryUUID(uuid.clone());
        control.setCookie(cookie == null ? null : cookie.toBytes());
        return control;
    }

    /**
     * The Sync Done control of a refreshOnly search's SearchResultDone.
     *
     * @param cookie the state reached; null for none
     * @param refreshDeletes whether the refresh was a delete phase (true) or a present phase (false)
     */
    public static SyncDoneValue done(SyncCookie cookie, boolean refreshDeletes) {
        SyncDoneValueImpl control = new SyncDoneValueImpl();
        control.setCritical(false);
        control.setCookie(cookie == null ? null : cookie.toBytes());
        control.setRefreshDeletes(refreshDeletes);
        return control;
    }

    /** Sync Info newcookie: the state has moved without an entry to carry the cookie. */
    public static SyncInfoValue newCookie(int messageId, SyncCookie cookie) {
        if (cookie == null) {
            throw new IllegalArgumentException("a newcookie Sync Info carries a cookie");
        }
        return info(messageId, SynchronizationInfoEnum.NEW_COOKIE, cookie);
    }

    /**
     * Sync Info refreshDelete: the end of a delete phase, or with {@code refreshDone} true the end of the
     * refresh stage of a refreshAndPersist search.
     */
    public static SyncInfoValue refreshDelete(int messageId, SyncCookie cookie, boolean refreshDone) {
        SyncInfoValue info = info(messageId, SynchronizationInfoEnum.REFRESH_DELETE, cookie);
        info.setRefreshDone(refreshDone);
        return info;
    }

    /** Sync Info refreshPresent: the end of a present phase, as {@link #refreshDelete} for its other fields. */
    public static SyncInfoValue refreshPresent(int messageId, SyncCookie cookie, boolean refreshDone) {
        SyncInfoValue info = info(messageId, SynchronizationInfoEnum.REFRESH_PRESENT, cookie);
        info.setRefreshDone(refreshDone);
        return info;
    }

    /**
     * Sync Info syncIdSet: entries that are present (refreshDeletes false) or deleted (true) by UUID.
     *
     * <p>Never empty: slapd 2.5's consumer reads an empty set as a null list (liblber's
     * {@code ber_get_stringbvl} leaves it unset) and then walks it (present) or hands it to
     * {@code syncrepl_del_nonpresent} (deletes) in servers/slapd/syncrepl.c.
     *
     * @param uuids 16 bytes each, 1–{@value #MAX_SYNC_ID_SET}; copied
     * @throws IllegalArgumentException when a UUID is not 16 bytes, or there are none or too many
     */
    public static SyncInfoValue syncIdSet(
            int messageId, SyncCookie cookie, boolean refreshDeletes, List<byte[]> uuids) {
        if (uuids.isEmpty()) {
            throw new IllegalArgumentException("an empty syncIdSet is never sent: slapd's consumer cannot take one");
        }
        if (uuids.size() > MAX_SYNC_ID_SET) {
            throw new IllegalArgumentException(
                    "a syncIdSet carries at most " + MAX_SYNC_ID_SET + " UUIDs here, not " + uuids.size());
        }
        List<byte[]> copies = new ArrayList<>(uuids.size());
        for (byte[] uuid : uuids) {
            EntryUuids.checkLength(uuid);
            copies.add(uuid.clone());
        }
        SyncInfoValue info = info(messageId, SynchronizationInfoEnum.SYNC_ID_SET, cookie);
        info.setRefreshDeletes(refreshDeletes);
        info.setSyncUUIDs(copies);
        return info;
    }

    private static SyncInfoValue info(int messageId, SynchronizationInfoEnum type, SyncCookie cookie) {
        SyncInfoValueImpl info = new SyncInfoValueImpl();
        info.setMessageId(messageId);
        info.setSyncInfoValueType(type);
        info.setCookie(cookie == null ? null : cookie.toBytes());
        return info;
    }
}
