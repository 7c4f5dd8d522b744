package dev.larch.server.sync;

import java.util.List;

import com.unboundid.asn1.ASN1Element;
import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.SearchRequestProtocolOp;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.DereferencePolicy;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.controls.ContentSyncRequestControl;
import com.unboundid.ldap.sdk.controls.ContentSyncRequestMode;
import dev.larch.server.csn.Csn;
import dev.larch.server.net.LdapMessageDecoder;
import dev.larch.server.net.LdapMessageEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.apache.directory.api.ldap.codec.api.LdapApiService;
import org.apache.directory.api.ldap.codec.standalone.StandaloneLdapApiService;
import org.apache.directory.api.ldap.extras.controls.SynchronizationModeEnum;
import org.apache.directory.api.ldap.extras.controls.syncrepl.syncRequest.SyncRequestValue;
import org.apache.directory.api.ldap.extras.controls.syncrepl.syncRequest.SyncRequestValueImpl;
import org.apache.directory.api.ldap.model.message.Request;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.SearchRequest;
import org.apache.directory.api.ldap.model.message.SearchRequestImpl;
import org.apache.directory.api.ldap.model.message.controls.OpaqueControl;
import org.apache.directory.api.ldap.model.name.Dn;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Sync Request control as UnboundID's ContentSyncRequestControl encodes it, decoded by the server's
 * own message decoder and read by {@link SyncRequest}: with the Apache factory the standalone codec
 * registers, and with {@link SyncRequestControlFactory} installed, which lets a malformed value reach the
 * handler.
 */
class SyncRequestTest {

    private static final String COOKIE = "rid=001,sid=002,csn=20261128152607.123456Z#000000#001#000000";

    /** A codec with the factory installed, as the server's singleton is once it serves sync searches. */
    private static LdapApiService installed;

    /**
     * A codec as the library ships it, without the factory: the JVM's singleton cannot stand for it, as a
     * server started earlier in the same JVM installed the factory there.
     */
    private static LdapApiService standalone;

    @BeforeAll
    static void installTheFactory() throws Exception {
        standalone = new StandaloneLdapApiService();
        installed = new StandaloneLdapApiService();
        SyncRequestControlFactory.install(installed);
        SyncRequestControlFactory.install(installed); // idempotent
    }

    @Test
    void theStandaloneCodecDecodesTheControlIntoItsValueClass() {
        Object decoded = decode(standalone, search(refreshAndPersist(true, COOKIE, true)));

        Request request = assertInstanceOf(SearchRequest.class, decoded);
        assertInstanceOf(SyncRequestValue.class, request.getControl(SyncRequest.OID));
        assertEveryField(SyncRequest.from(request));
    }

    @Test
    void theInstalledFactoryLeavesTheValueToSyncRequestWhichReadsTheSameFields() {
        Object decoded = decode(installed, search(refreshAndPersist(true, COOKIE, true)));

        Request request = assertInstanceOf(SearchRequest.class, decoded);
        assertInstanceOf(OpaqueControl.class, request.getControl(SyncRequest.OID));
        assertEveryField(SyncRequest.from(request));
    }

    @Test
    void aRefreshOnlyRequestWithoutCookieAsksForAFullRefresh() {
        for (LdapApiService codec : List.of(standalone, installed)) {
            SyncRequest sync = SyncRequest.from((Request)
                    decode(codec, search(new ContentSyncRequestControl(ContentSyncRequestMode.REFRESH_ONLY))));

            assertEquals(SyncRequest.Mode.REFRESH_ONLY, sync.mode());
            assertFalse(sync.hasCookie());
            assertNull(sync.cookie());
            assertFalse(sync.reloadHint());
            assertTrue(sync.critical(), "UnboundID marks the control critical by default");
        }
    }

    @Test
    void anEmptyCookieIsNoCookie() {
        SyncRequest sync = SyncRequest.from((Request) decode(installed, search(refreshAndPersist(false, "", false))));

        assertFalse(sync.hasCookie());
        assertFalse(sync.critical());
    }

    @Test
    void aSearchWithoutTheControlHasNoSyncRequest() {
        assertNull(SyncRequest.from((Request) decode(installed, search())));
    }

    @Test
    void aMalformedCookieIsProtocolErrorSayingWhatIsWrong() {
        SyncControlException e = assertThrows(
                SyncControlException.class,
                () -> SyncRequest.from(
                        (Request) decode(installed, search(refreshAndPersist(true, "rid=5000", false)))));

        assertEquals(ResultCodeEnum.PROTOCOL_ERROR, e.resultCode());
        assertTrue(e.getMessage().contains("rid must be at most 999"), e.getMessage());
    }

    /**
     * Control values as hex: modes 0, 2 and 7; not a SEQUENCE; an empty SEQUENCE; an INTEGER for the cookie;
     * garbage; a SEQUENCE longer than the value; an unknown element; bytes after the SEQUENCE; an indefinite
     * length; no mode.
     */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "30030a0100",
                "30030a0102",
                "30030a0107",
                "04010a",
                "3000",
                "30060a0101020105",
                "ffff",
                "300a0a0103",
                "30050a0103ff00",
                "30030a010300",
                "30800a01030000",
                "3003010101"
            })
    void aMalformedValueReachesTheHandlerAndIsProtocolError(String hex) {
        Object decoded = decode(installed, search(raw(ByteBufUtil.decodeHexDump(hex))));

        Request request = assertInstanceOf(SearchRequest.class, decoded, "the search is still decoded");
        SyncControlException e = assertThrows(SyncControlException.class, () -> SyncRequest.from(request));
        assertEquals(ResultCodeEnum.PROTOCOL_ERROR, e.resultCode());
        assertTrue(e.getMessage().startsWith("Sync Request control: "), e.getMessage());
    }

    @Test
    void anAbsentOrEmptyValueIsProtocolError() {
        for (ASN1OctetString value : new ASN1OctetString[] {null, new ASN1OctetString()}) {
            Request request = (Request) decode(installed, search(new Control(SyncRequest.OID, true, value)));

            SyncControlException e = assertThrows(SyncControlException.class, () -> SyncRequest.from(request));
            assertEquals(ResultCodeEnum.PROTOCOL_ERROR, e.resultCode());
        }
    }

    @Test
    void withoutTheInstalledFactoryAMalformedValueFailsTheWholePdu() {
        Object decoded = decode(standalone, search(raw(ByteBufUtil.decodeHexDump("30030a0107"))));

        assertFalse(decoded instanceof Request, "the standalone codec refuses the PDU: " + decoded);
    }

    @Test
    void aClientSharingTheInstalledCodecStillEncodesTheValueClass() throws Exception {
        SearchRequest search = new SearchRequestImpl();
        search.setMessageId(3);
        search.setBase(new Dn("dc=example,dc=com"));
        search.setFilter("(objectClass=*)");
        search.setScope(org.apache.directory.api.ldap.model.message.SearchScope.SUBTREE);
        SyncRequestValue value = new SyncRequestValueImpl();
        value.setMode(SynchronizationModeEnum.REFRESH_ONLY);
        value.setCookie(COOKIE.getBytes(US_ASCII));
        value.setReloadHint(true);
        value.setCritical(true);
        search.addControl(value);

        ByteBuf pdu = new LdapMessageEncoder(installed).encode(UnpooledByteBufAllocator.DEFAULT, search);
        LDAPMessage message = LDAPMessage.decode(ASN1Element.decode(ByteBufUtil.getBytes(pdu)));
        pdu.release();

        ContentSyncRequestControl theirs =
                new ContentSyncRequestControl(message.getControls().get(0));
        assertEquals(ContentSyncRequestMode.REFRESH_ONLY, theirs.getMode());
        assertEquals(COOKIE, theirs.getCookie().stringValue());
        assertTrue(theirs.getReloadHint());
        assertTrue(theirs.isCritical());
    }

    private static void assertEveryField(SyncRequest sync) {
        assertEquals(SyncRequest.Mode.REFRESH_AND_PERSIST, sync.mode());
        assertEquals(SyncCookie.parse(COOKIE), sync.cookie());
        assertEquals(1, sync.cookie().rid());
        assertEquals(2, sync.cookie().sid());
        assertEquals(
                Csn.parse("20261128152607.123456Z#000000#001#000000"),
                sync.cookie().csns().get(1));
        assertTrue(sync.reloadHint());
        assertTrue(sync.critical());
    }

    private static ContentSyncRequestControl refreshAndPersist(boolean critical, String cookie, boolean reloadHint) {
        return new ContentSyncRequestControl(
                critical, ContentSyncRequestMode.REFRESH_AND_PERSIST, new ASN1OctetString(cookie), reloadHint);
    }

    private static Control raw(byte[] value) {
        return new Control(SyncRequest.OID, true, new ASN1OctetString(value));
    }

    private static byte[] search(Control... controls) {
        SearchRequestProtocolOp op = new SearchRequestProtocolOp(
                "dc=example,dc=com",
                SearchScope.SUB,
                DereferencePolicy.NEVER,
                0,
                0,
                false,
                Filter.createPresenceFilter("objectClass"),
                List.of("*", "+"));
        return new LDAPMessage(2, op, List.of(controls)).encode().encode();
    }

    private static Object decode(LdapApiService codec, byte[] pdu) {
        ByteBuf buffer = Unpooled.wrappedBuffer(pdu);
        try {
            return new LdapMessageDecoder(codec, 1 << 20, 50).decode(buffer);
        } finally {
            buffer.release();
        }
    }
}
