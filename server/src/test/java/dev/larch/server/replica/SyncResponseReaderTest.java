package dev.larch.server.replica;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.protocol.IntermediateResponseProtocolOp;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.SearchResultDoneProtocolOp;
import com.unboundid.ldap.protocol.SearchResultEntryProtocolOp;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.controls.ContentSyncDoneControl;
import com.unboundid.ldap.sdk.controls.ContentSyncInfoIntermediateResponse;
import com.unboundid.ldap.sdk.controls.ContentSyncState;
import com.unboundid.ldap.sdk.controls.ContentSyncStateControl;
import dev.larch.server.entry.EntryUuids;
import dev.larch.server.sync.SyncCookie;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.apache.directory.api.ldap.codec.api.LdapApiServiceFactory;
import org.apache.directory.api.ldap.model.message.Message;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a provider sends, encoded by the UnboundID SDK (a second implementation of RFC 4533), framed and
 * decoded on the consumer side ({@link ProviderMessageDecoder}, bytes split one by one) and read into
 * {@link ReplicaChange}s ({@link SyncResponseReader}).
 */
class SyncResponseReaderTest {
    private static final String COOKIE = "rid=005,sid=001,csn=20261128120000.000000Z#000000#001#000000";
    private static final UUID A = UUID.fromString("0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9");
    private static final UUID B = UUID.fromString("11111111-2222-3333-4444-555555555555");

    private final SyncResponseReader reader = new SyncResponseReader(5);

    /** Decodes {@code pdus}, fed one byte at a time, into Apache messages. */
    private static List<Message> decode(LDAPMessage... messages) {
        EmbeddedChannel channel =
                new EmbeddedChannel(new ProviderMessageDecoder(LdapApiServiceFactory.getSingleton(), 1 << 20));
        for (LDAPMessage message : messages) {
            for (byte b : message.encode().encode()) {
                channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {b}));
            }
        }
        List<Message> out = new ArrayList<>();
        Object m;
        while ((m = channel.readInbound()) != null) {
            out.add((Message) m);
        }
        channel.finishAndReleaseAll();
        return out;
    }

    private ReplicaChange one(LDAPMessage message) {
        SyncResponseReader.Read read = reader.read(decode(message).get(0));
        List<ReplicaChange> changes =
                assertInstanceOf(SyncResponseReader.Changes.class, read).changes();
        assertEquals(1, changes.size());
        return changes.get(0);
    }

    private static LDAPMessage entry(ContentSyncState state, UUID uuid, String cookie) {
        return new LDAPMessage(
                2,
                new SearchResultEntryProtocolOp(
                        "cn=a,dc=example,dc=com",
                        state == ContentSyncState.ADD || state == ContentSyncState.MODIFY
                                ? List.of(new Attribute("objectClass", "device"), new Attribute("cn", "a"))
                                : List.of()),
                new ContentSyncStateControl(state, uuid, cookie == null ? null : new ASN1OctetString(cookie)));
    }

    private static LDAPMessage info(ContentSyncInfoIntermediateResponse info) {
        return new LDAPMessage(2, new IntermediateResponseProtocolOp(info));
    }

    @Test
    void addAndModifyAreUpsertsOfTheEntryWithItsUuidAndCookie() {
        ReplicaChange.Upsert add =
                assertInstanceOf(ReplicaChange.Upsert.class, one(entry(ContentSyncState.ADD, A, null)));
        assertArrayEquals(EntryUuids.toBytes(A), add.uuid());
        assertEquals("a", add.entry().get("cn").get().getString());
        assertNull(add.cookie());
        ReplicaChange.Upsert modify =
                assertInstanceOf(ReplicaChange.Upsert.class, one(entry(ContentSyncState.MODIFY, A, COOKIE)));
        assertEquals(SyncCookie.parse(COOKIE), modify.cookie());
    }

    @Test
    void deleteAndPresentCarryTheUuidOnly() {
        ReplicaChange.Deleted deleted =
                assertInstanceOf(ReplicaChange.Deleted.class, one(entry(ContentSyncState.DELETE, B, COOKIE)));
        assertArrayEquals(EntryUuids.toBytes(B), deleted.uuid());
        assertEquals("cn=a,dc=example,dc=com", deleted.dn());
        assertEquals(SyncCookie.parse(COOKIE), deleted.cookie());
        ReplicaChange.Present present =
                assertInstanceOf(ReplicaChange.Present.class, one(entry(ContentSyncState.PRESENT, B, null)));
        assertArrayEquals(EntryUuids.toBytes(B), present.uuid());
    }

    @Test
    void syncInfoMessagesAreNewCookiePhaseEndsAndIdSets() {
        assertEquals(
                new ReplicaChange.NewCookie(SyncCookie.parse(COOKIE)),
                one(info(ContentSyncInfoIntermediateResponse.createNewCookieResponse(new ASN1OctetString(COOKIE)))));
        assertEquals(
                new ReplicaChange.PhaseEnd(false, true, SyncCookie.parse(COOKIE)),
                one(info(ContentSyncInfoIntermediateResponse.createRefreshDeleteResponse(
                        new ASN1OctetString(COOKIE), true))));
        assertEquals(
                new ReplicaChange.PhaseEnd(true, false, null),
                one(info(ContentSyncInfoIntermediateResponse.createRefreshPresentResponse(null, false))));
        ReplicaChange.IdSet set = assertInstanceOf(
                ReplicaChange.IdSet.class,
                one(info(ContentSyncInfoIntermediateResponse.createSyncIDSetResponse(null, List.of(A, B), true))));
        assertTrue(set.deletes());
        assertEquals(2, set.uuids().size());
        assertArrayEquals(EntryUuids.toBytes(B), set.uuids().get(1));
    }

    @Test
    void aSyncDoneIsThePhaseEndOfTheSearchsResult() {
        SyncResponseReader.Done done = assertInstanceOf(
                SyncResponseReader.Done.class,
                reader.read(decode(new LDAPMessage(
                                2,
                                new SearchResultDoneProtocolOp(0, null, null, null),
                                new ContentSyncDoneControl(new ASN1OctetString(COOKIE), true)))
                        .get(0)));
        assertEquals(ResultCodeEnum.SUCCESS, done.code());
        assertEquals(new ReplicaChange.PhaseEnd(false, true, SyncCookie.parse(COOKIE)), done.phaseEnd());
        SyncResponseReader.Done refused = assertInstanceOf(
                SyncResponseReader.Done.class,
                reader.read(decode(new LDAPMessage(2, new SearchResultDoneProtocolOp(4096, null, "old", null)))
                        .get(0)));
        assertEquals(ResultCodeEnum.E_SYNC_REFRESH_REQUIRED, refused.code());
        assertNull(refused.phaseEnd());
    }

    @Test
    void aCookieOfAnotherRidOrNotACookieIsRefused() {
        Message other = decode(entry(ContentSyncState.MODIFY, A, COOKIE.replace("rid=005", "rid=006")))
                .get(0);
        assertThrows(ProviderProtocolException.class, () -> reader.read(other));
        Message garbage =
                decode(entry(ContentSyncState.MODIFY, A, "not a cookie")).get(0);
        ProviderProtocolException e = assertThrows(ProviderProtocolException.class, () -> reader.read(garbage));
        assertTrue(e.getMessage().contains("malformed sync cookie"), e.getMessage());
        assertFalse(e.getMessage().isEmpty());
    }
}
