package dev.larch.server.replica;

import java.util.List;

import com.unboundid.asn1.ASN1Element;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.SearchRequestProtocolOp;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.controls.ContentSyncRequestControl;
import com.unboundid.ldap.sdk.controls.ContentSyncRequestMode;
import dev.larch.config.ReplicationConsumer;
import dev.larch.server.net.LdapMessageEncoder;
import dev.larch.server.sync.SyncCookie;
import dev.larch.server.sync.SyncRequest;
import dev.larch.server.sync.SyncRequestControlFactory;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.apache.directory.api.ldap.codec.api.LdapApiServiceFactory;
import org.apache.directory.api.ldap.model.message.SearchRequestImpl;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sync search a session sends, encoded by the server's encoder and decoded by the UnboundID SDK (a
 * second implementation of RFC 4533): the base, scope, filter and attributes, and the Sync Request
 * control's mode, cookie, reload hint and criticality; and the same bytes read back by the provider side.
 */
class SyncRequestCodecTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "REFRESH_ONLY | rid=005,sid=002 | false",
                "REFRESH_AND_PERSIST | rid=005,sid=002,csn=20261128120000.000000Z#000000#001#000000 | true",
                "REFRESH_AND_PERSIST | rid=999,sid=fff | false"
            })
    void theSyncSearchDecodesInUnboundIdFieldByField(ReplicationConsumer.Mode mode, String cookie, boolean reloadHint)
            throws Exception {
        SyncRequestControlFactory.install(LdapApiServiceFactory.getSingleton());
        SearchRequestImpl ours =
                SyncConnection.searchRequest(3, "dc=example,dc=com", mode, SyncCookie.parse(cookie), reloadHint);
        ByteBuf pdu = new LdapMessageEncoder(LdapApiServiceFactory.getSingleton())
                .encode(UnpooledByteBufAllocator.DEFAULT, ours);
        LDAPMessage theirs;
        try {
            theirs = LDAPMessage.decode(ASN1Element.decode(ByteBufUtil.getBytes(pdu)));
        } finally {
            pdu.release();
        }
        assertEquals(3, theirs.getMessageID());
        SearchRequestProtocolOp search = theirs.getSearchRequestProtocolOp();
        assertEquals("dc=example,dc=com", search.getBaseDN());
        assertEquals(SearchScope.SUB, search.getScope());
        assertEquals(Filter.create("(objectClass=*)"), search.getFilter());
        assertEquals(List.of("*", "+"), search.getAttributes());
        assertEquals(1, theirs.getControls().size());
        Control control = theirs.getControls().get(0);
        assertTrue(control.isCritical());
        ContentSyncRequestControl sync = new ContentSyncRequestControl(control);
        assertEquals(
                mode == ReplicationConsumer.Mode.REFRESH_ONLY
                        ? ContentSyncRequestMode.REFRESH_ONLY
                        : ContentSyncRequestMode.REFRESH_AND_PERSIST,
                sync.getMode());
        assertEquals(cookie, sync.getCookie().stringValue());
        assertEquals(reloadHint, sync.getReloadHint());

        // The provider side reads the same control back to the same request.
        SyncRequest read = SyncRequest.from(ours.getControl(SyncRequest.OID));
        assertEquals(SyncCookie.parse(cookie), read.cookie());
        assertEquals(reloadHint, read.reloadHint());
    }
}
