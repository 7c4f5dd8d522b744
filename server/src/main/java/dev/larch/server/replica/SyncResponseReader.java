package dev.larch.server.replica;

import java.util.ArrayList;
import java.util.List;

import dev.larch.server.sync.MalformedCookieException;
import dev.larch.server.sync.SyncCookie;
import org.apache.directory.api.ldap.extras.controls.syncrepl.syncDone.SyncDoneValue;
import org.apache.directory.api.ldap.extras.controls.syncrepl.syncState.SyncStateValue;
import org.apache.directory.api.ldap.extras.intermediate.syncrepl.SyncInfoValue;
import org.apache.directory.api.ldap.model.message.Control;
import org.apache.directory.api.ldap.model.message.IntermediateResponse;
import org.apache.directory.api.ldap.model.message.LdapResult;
import org.apache.directory.api.ldap.model.message.Message;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.SearchResultDone;
import org.apache.directory.api.ldap.model.message.SearchResultEntry;
import org.apache.directory.api.ldap.model.message.SearchResultReference;

/**
 * Turns what a provider answers a sync search with (RFC 4533 sections 2.3–2.5, 3.3–3.4) into {@link
 * ReplicaChange}s, checking as it goes: every entry carries one Sync State control whose UUID is 16 bytes,
 * every cookie parses and names this consumer's replica ID. Anything else is a {@link
 * ProviderProtocolException} and nothing of that message is returned.
 *
 * <p>Stateless apart from the replica ID; thread-safe.
 */
final class SyncResponseReader {

    private static final int UUID_BYTES = 16;

    /** What one message of the search means. */
    sealed interface Read {}

    /**
     * Changes to hand to the sink, in order.
     *
     * @param boundary whether the batch being filled should be flushed after them (a phase end or a new cookie)
     */
    record Changes(List<ReplicaChange> changes, boolean boundary) implements Read {}

    /**
     * The search ended.
     *
     * @param phaseEnd the Sync Done control's phase end, null when the result carries none
     */
    record Done(ResultCodeEnum code, String diagnostic, ReplicaChange.PhaseEnd phaseEnd) implements Read {}

    /** A message the session does not act on (a continuation reference, which a sync search ignores). */
    record Ignored(String what) implements Read {}

    private final int rid;

    SyncResponseReader(int rid) {
        this.rid = rid;
    }

    /**
     * What {@code message}, an answer to the sync search, means.
     *
     * @throws ProviderProtocolException when it cannot be acted on
     */
    Read read(Message message) {
        return switch (message) {
            case SearchResultEntry entry -> new Changes(List.of(entry(entry)), false);
            case SyncInfoValue info -> info(info);
            case SearchResultDone done -> done(done);
            case SearchResultReference reference -> new Ignored("a search continuation reference");
            case IntermediateResponse other ->
                throw new ProviderProtocolException(
                        "an intermediate response that is not Sync Info: " + other.getResponseName());
            default -> throw new ProviderProtocolException("an unexpected " + message.getType() + " in a sync search");
        };
    }

    private ReplicaChange entry(SearchResultEntry entry) {
        Control control = entry.getControl(SyncStateValue.OID);
        String dn = entry.getObjectName() == null ? "" : entry.getObjectName().getName();
        if (control == null) {
            throw new ProviderProtocolException("the entry " + dn + " carries no Sync State control");
        }
        if (!(control instanceof SyncStateValue state) || state.getSyncStateType() == null) {
            throw new ProviderProtocolException("the Sync State control of " + dn + " did not decode");
        }
        byte[] uuid = uuid(state.getEntryUUID(), "the Sync State control of " + dn);
        SyncCookie cookie = cookie(state.getCookie());
        return switch (state.getSyncStateType()) {
            case ADD, MODIFY -> new ReplicaChange.Upsert(uuid, entry.getEntry(), cookie);
            case DELETE -> new ReplicaChange.Deleted(uuid, dn, cookie);
            case PRESENT -> {
                if (entry.getEntry().size() > 0) {
                    yield new ReplicaChange.Upsert(uuid, entry.getEntry(), cookie);
                }
                yield new ReplicaChange.Present(uuid);
            }
            case MODDN ->
                throw new ProviderProtocolException(
                        "the Sync State of " + dn + " is moddn, an ApacheDS state RFC 4533 does not define");
        };
    }

    private Read info(SyncInfoValue info) {
        if (info.getSyncInfoValueType() == null) {
            throw new ProviderProtocolException("a Sync Info message of no known choice");
        }
        SyncCookie cookie = cookie(info.getCookie());
        ReplicaChange change = switch (info.getSyncInfoValueType()) {
            case NEW_COOKIE -> {
                if (cookie == null) {
                    throw new ProviderProtocolException("a newcookie Sync Info message without a cookie");
                }
                yield new ReplicaChange.NewCookie(cookie);
            }
            case REFRESH_DELETE -> new ReplicaChange.PhaseEnd(false, info.isRefreshDone(), cookie);
            case REFRESH_PRESENT -> new ReplicaChange.PhaseEnd(true, info.isRefreshDone(), cookie);
            case SYNC_ID_SET -> {
                List<byte[]> uuids = new ArrayList<>(info.getSyncUUIDs().size());
                for (byte[] uuid : info.getSyncUUIDs()) {
                    uuids.add(uuid(uuid, "a syncIdSet"));
                }
                yield new ReplicaChange.IdSet(List.copyOf(uuids), info.isRefreshDeletes(), cookie);
            }
        };
        // An IdSet is no phase boundary: only a cookie-carrying set moves the state.
        return new Changes(List.of(change), !(change instanceof ReplicaChange.IdSet) || cookie != null);
    }

    private Read done(SearchResultDone done) {
        LdapResult result = done.getLdapResult();
        ReplicaChange.PhaseEnd phaseEnd = null;
        Control control = done.getControl(SyncDoneValue.OID);
        if (control != null) {
            if (!(control instanceof SyncDoneValue syncDone)) {
                throw new ProviderProtocolException("the Sync Done control did not decode");
            }
            phaseEnd = new ReplicaChange.PhaseEnd(!syncDone.isRefreshDeletes(), true, cookie(syncDone.getCookie()));
        }
        return new Done(result.getResultCode(), result.getDiagnosticMessage(), phaseEnd);
    }

    /** The cookie a provider sent; null for none. */
    private SyncCookie cookie(byte[] bytes) {
        if (bytes == null || bytes.length == 0) {
            return null;
        }
        SyncCookie cookie;
        try {
            cookie = SyncCookie.parse(bytes);
        } catch (MalformedCookieException e) {
            throw new ProviderProtocolException("the provider sent " + e.getMessage());
        }
        if (cookie.rid() != rid) {
            throw new ProviderProtocolException(
                    "the provider sent a cookie for replica " + cookie.rid() + ", not ours (" + rid + "): " + cookie);
        }
        return cookie;
    }

    private static byte[] uuid(byte[] uuid, String where) {
        if (uuid == null || uuid.length != UUID_BYTES) {
            throw new ProviderProtocolException(
                    where + " holds a UUID of " + (uuid == null ? 0 : uuid.length) + " bytes, not " + UUID_BYTES);
        }
        return uuid.clone();
    }
}
