package dev.larch.server.sync;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import com.unboundid.asn1.ASN1Element;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.IntermediateResponse;
import com.unboundid.ldap.sdk.controls.ContentSyncDoneControl;
import com.unboundid.ldap.sdk.controls.ContentSyncInfoIntermediateResponse;
import com.unboundid.ldap.sdk.controls.ContentSyncInfoType;
import com.unboundid.ldap.sdk.controls.ContentSyncState;
import com.unboundid.ldap.sdk.controls.ContentSyncStateControl;
import dev.larch.server.csn.Csn;
import dev.larch.server.csn.CsnVector;
import dev.larch.server.entry.EntryUuids;
import dev.larch.server.net.LdapMessageEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.apache.directory.api.ldap.codec.api.LdapApiServiceFactory;
import org.apache.directory.api.ldap.extras.intermediate.syncrepl.SyncInfoValue;
import org.apache.directory.api.ldap.model.message.Message;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.SearchResultDoneImpl;
import org.apache.directory.api.ldap.model.message.SearchResultEntryImpl;
import org.apache.directory.api.ldap.model.name.Dn;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What {@link SyncResponses} builds, encoded by the server's own encoder (the Apache factories the
 * standalone codec registers) and decoded by the UnboundID SDK's content-sync classes, field by field.
 */
class SyncResponsesTest {

    private static final SyncCookie COOKIE = new SyncCookie(
            7,
            2,
            CsnVector.of(
                    Csn.parse("20261128152607.123456Z#000000#001#000000"),
                    Csn.parse("20261128152610.000001Z#000002#002#000000")));

    private static final UUID ENTRY = UUID.fromString("0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9");

    @ParameterizedTest
    @EnumSource(SyncState.class)
    void everyStateWithACookieDecodesInUnboundId(SyncState state) throws Exception {
        ContentSyncStateControl theirs = stateOf(SyncResponses.state(state, EntryUuids.toBytes(ENTRY), COOKIE));

        assertEquals(ContentSyncState.valueOf(state.name()), theirs.getState());
        assertEquals(ENTRY, theirs.getEntryUUID());
        assertEquals(COOKIE.format(), theirs.getCookie().stringValue());
        assertFalse(theirs.isCritical());
    }

    @Test
    void aStateWithoutCookieCarriesNone() throws Exception {
        ContentSyncStateControl theirs = stateOf(SyncResponses.state(SyncState.ADD, EntryUuids.toBytes(ENTRY), null));

        assertEquals(ContentSyncState.ADD, theirs.getState());
        assertEquals(ENTRY, theirs.getEntryUUID());
        assertNull(theirs.getCookie());
    }

    @Test
    void aStateNeedsASixteenByteUuid() {
        assertThrows(IllegalArgumentException.class, () -> SyncResponses.state(SyncState.ADD, new byte[15], null));
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void doneWithACookieDecodesInUnboundId(boolean refreshDeletes) throws Exception {
        ContentSyncDoneControl theirs = doneOf(SyncResponses.done(COOKIE, refreshDeletes));

        assertEquals(COOKIE.format(), theirs.getCookie().stringValue());
        assertEquals(refreshDeletes, theirs.refreshDeletes());
        assertFalse(theirs.isCritical());
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aCookieLessDoneDecodesInUnboundId(boolean refreshDeletes) throws Exception {
        ContentSyncDoneControl theirs = doneOf(SyncResponses.done(null, refreshDeletes));

        assertNull(theirs.getCookie());
        assertEquals(refreshDeletes, theirs.refreshDeletes());
    }

    @Test
    void newCookieDecodesInUnboundId() throws Exception {
        ContentSyncInfoIntermediateResponse theirs = infoOf(SyncResponses.newCookie(5, COOKIE));

        assertEquals(ContentSyncInfoType.NEW_COOKIE, theirs.getType());
        assertEquals(COOKIE.format(), theirs.getCookie().stringValue());
        assertThrows(IllegalArgumentException.class, () -> SyncResponses.newCookie(5, null));
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void refreshDeleteDecodesInUnboundId(boolean refreshDone) throws Exception {
        ContentSyncInfoIntermediateResponse theirs = infoOf(SyncResponses.refreshDelete(5, COOKIE, refreshDone));

        assertEquals(ContentSyncInfoType.REFRESH_DELETE, theirs.getType());
        assertEquals(COOKIE.format(), theirs.getCookie().stringValue());
        assertEquals(refreshDone, theirs.refreshDone());
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void refreshPresentDecodesInUnboundId(boolean refreshDone) throws Exception {
        ContentSyncInfoIntermediateResponse theirs = infoOf(SyncResponses.refreshPresent(5, null, refreshDone));

        assertEquals(ContentSyncInfoType.REFRESH_PRESENT, theirs.getType());
        assertNull(theirs.getCookie());
        assertEquals(refreshDone, theirs.refreshDone());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 256})
    void syncIdSetsDecodeInUnboundIdWithEveryUuidInOrder(int count) throws Exception {
        for (boolean refreshDeletes : new boolean[] {true, false}) {
            List<UUID> uuids = new ArrayList<>();
            List<byte[]> bytes = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                UUID uuid = UUID.randomUUID();
                uuids.add(uuid);
                bytes.add(EntryUuids.toBytes(uuid));
            }

            ContentSyncInfoIntermediateResponse theirs =
                    infoOf(SyncResponses.syncIdSet(5, count == 1 ? null : COOKIE, refreshDeletes, bytes));

            assertEquals(ContentSyncInfoType.SYNC_ID_SET, theirs.getType());
            assertEquals(uuids, theirs.getEntryUUIDs());
            assertEquals(refreshDeletes, theirs.refreshDeletes());
            if (count == 1) {
                assertNull(theirs.getCookie());
            } else {
                assertEquals(COOKIE.format(), theirs.getCookie().stringValue());
            }
        }
    }

    @Test
    void anEmptySyncIdSetIsRefusedThoughTheCodecsCouldCarryIt() throws Exception {
        // slapd 2.5's consumer would walk a null UUID list (syncrepl.c, SYNC_ID_SET): never send one.
        assertThrows(IllegalArgumentException.class, () -> SyncResponses.syncIdSet(5, COOKIE, false, List.of()));

        // The encoding itself is sound, for the record: an empty SET that UnboundID reads.
        SyncInfoValue empty = SyncResponses.syncIdSet(5, COOKIE, true, List.of(new byte[16]));
        empty.setSyncUUIDs(new ArrayList<>());
        ContentSyncInfoIntermediateResponse theirs = infoOf(empty);
        assertEquals(List.of(), theirs.getEntryUUIDs());
        assertTrue(theirs.refreshDeletes());
    }

    @Test
    void aSyncIdSetRefusesMoreThanABatchOrAShortUuid() {
        List<byte[]> tooMany = new ArrayList<>();
        for (int i = 0; i <= SyncResponses.MAX_SYNC_ID_SET; i++) {
            tooMany.add(new byte[16]);
        }

        assertThrows(IllegalArgumentException.class, () -> SyncResponses.syncIdSet(5, null, false, tooMany));
        assertThrows(
                IllegalArgumentException.class,
                () -> SyncResponses.syncIdSet(5, null, false, List.of(new byte[16], new byte[3])));
    }

    @Test
    void batchesFromTheBatcherGoStraightIntoSyncIdSets() throws Exception {
        List<ContentSyncInfoIntermediateResponse> sent = new ArrayList<>();
        SyncIdSetBatcher batcher = new SyncIdSetBatcher(batch -> {
            try {
                sent.add(infoOf(SyncResponses.syncIdSet(5, null, false, batch)));
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        for (int i = 0; i < 300; i++) {
            batcher.add(EntryUuids.toBytes(new UUID(0, i)));
        }
        batcher.flush();

        assertEquals(
                List.of(256, 44),
                sent.stream().map(r -> r.getEntryUUIDs().size()).toList());
        assertEquals(new UUID(0, 299), sent.get(1).getEntryUUIDs().get(43));
    }

    @Test
    void theCookieIsItsSlapdText() {
        assertEquals(
                "rid=007,sid=002,csn=20261128152607.123456Z#000000#001#000000;20261128152610.000001Z#000002#002#000000",
                new String(COOKIE.toBytes(), US_ASCII));
    }

    private static ContentSyncStateControl stateOf(org.apache.directory.api.ldap.model.message.Control control)
            throws Exception {
        SearchResultEntryImpl entry = new SearchResultEntryImpl(5);
        entry.setObjectName(new Dn("dc=example,dc=com"));
        entry.addControl(control);
        LDAPMessage message = roundTrip(entry);
        Control theirs = message.getControls().get(0);
        assertEquals(ContentSyncStateControl.SYNC_STATE_OID, theirs.getOID());
        return new ContentSyncStateControl(theirs.getOID(), theirs.isCritical(), theirs.getValue());
    }

    private static ContentSyncDoneControl doneOf(org.apache.directory.api.ldap.model.message.Control control)
            throws Exception {
        SearchResultDoneImpl done = new SearchResultDoneImpl(5);
        done.getLdapResult().setResultCode(ResultCodeEnum.SUCCESS);
        done.addControl(control);
        LDAPMessage message = roundTrip(done);
        assertEquals(0, message.getSearchResultDoneProtocolOp().getResultCode());
        Control theirs = message.getControls().get(0);
        assertEquals(ContentSyncDoneControl.SYNC_DONE_OID, theirs.getOID());
        return new ContentSyncDoneControl(theirs.getOID(), theirs.isCritical(), theirs.getValue());
    }

    private static ContentSyncInfoIntermediateResponse infoOf(Message info) throws Exception {
        LDAPMessage message = roundTrip(info);
        assertEquals(5, message.getMessageID());
        IntermediateResponse response =
                message.getIntermediateResponseProtocolOp().toIntermediateResponse();
        assertEquals(ContentSyncInfoIntermediateResponse.SYNC_INFO_OID, response.getOID());
        assertNotNull(response.getValue());
        return ContentSyncInfoIntermediateResponse.decode(response);
    }

    private static LDAPMessage roundTrip(Message message) throws Exception {
        ByteBuf pdu = new LdapMessageEncoder(LdapApiServiceFactory.getSingleton())
                .encode(UnpooledByteBufAllocator.DEFAULT, message);
        try {
            return LDAPMessage.decode(ASN1Element.decode(ByteBufUtil.getBytes(pdu)));
        } finally {
            pdu.release();
        }
    }
}
