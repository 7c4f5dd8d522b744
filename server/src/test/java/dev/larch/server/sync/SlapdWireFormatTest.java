package dev.larch.server.sync;

import java.util.Base64;

import com.unboundid.asn1.ASN1Element;
import com.unboundid.ldap.protocol.LDAPMessage;
import dev.larch.server.entry.EntryUuids;
import dev.larch.server.net.LdapMessageEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.apache.directory.api.ldap.codec.api.LdapApiServiceFactory;
import org.apache.directory.api.ldap.model.message.Control;
import org.apache.directory.api.ldap.model.message.Message;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.SearchResultDoneImpl;
import org.apache.directory.api.ldap.model.message.SearchResultEntryImpl;
import org.apache.directory.api.ldap.model.name.Dn;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Control values captured from slapd 2.5.13 (Debian's package; back-mdb, syncprov, serverID 2) answering
 * {@code ldapsearch -E sync=ro/rid=005,sid=00a} and {@code sync=rp/...}, base64 as ldapsearch printed them:
 * what {@link SyncResponses} builds for the same content encodes to the same bytes, and slapd's cookies
 * read and write back unchanged.
 */
class SlapdWireFormatTest {

    /** Sync State add of dc=example,dc=com in the refresh: no cookie. */
    private static final String STATE_ADD = "MBUKAQEEEIduDrh/kRBBn28FKoYff/Q=";

    /** Sync State modify in the persist stage, with the cookie after the change. */
    private static final String STATE_MODIFY = "MFMKAQIEEIduYhR/kRBBn3AFKoYff/QEPHJpZD0wMDUsc2lkPTAwMixjc249MjAyNjEx"
            + "MjgxNjA3MjcuNTczOTUzWiMwMDAwMDAjMDAyIzAwMDAwMA==";

    /** Sync Done of a refreshOnly search without cookie: refreshDeletes TRUE. */
    private static final String DONE =
            "MEEEPHJpZD0wMDUsc2lkPTAwMixjc249MjAyNjExMjgxNjA3MTguMDMzNjMwWiMwMDAw" + "MDAjMDAyIzAwMDAwMAEB/w==";

    private static final String DONE_COOKIE = "rid=005,sid=002,csn=20261128160718.033630Z#000000#002#000000";
    private static final String MODIFY_COOKIE = "rid=005,sid=002,csn=20261128160727.573953Z#000000#002#000000";

    @Test
    void aRefreshStateIsByteForByteSlapds() throws Exception {
        Control ours =
                SyncResponses.state(SyncState.ADD, EntryUuids.toBytes("876e0eb8-7f91-1041-9f6f-052a861f7ff4"), null);

        assertArrayEquals(Base64.getDecoder().decode(STATE_ADD), entryControlValue(ours));
    }

    @Test
    void aPersistStateWithItsCookieIsByteForByteSlapds() throws Exception {
        Control ours = SyncResponses.state(
                SyncState.MODIFY,
                EntryUuids.toBytes("876e6214-7f91-1041-9f70-052a861f7ff4"),
                SyncCookie.parse(MODIFY_COOKIE));

        assertArrayEquals(Base64.getDecoder().decode(STATE_MODIFY), entryControlValue(ours));
    }

    @Test
    void aDoneIsByteForByteSlapds() throws Exception {
        Control ours = SyncResponses.done(SyncCookie.parse(DONE_COOKIE), true);

        assertArrayEquals(Base64.getDecoder().decode(DONE), doneControlValue(ours));
    }

    @Test
    void slapdsCookiesReadAndWriteBackUnchanged() {
        for (String cookie : new String[] {DONE_COOKIE, MODIFY_COOKIE}) {
            SyncCookie parsed = SyncCookie.parse(cookie);
            assertEquals(5, parsed.rid());
            assertEquals(2, parsed.sid());
            assertEquals(cookie, parsed.format());
        }
        // What ldapsearch sent as the consumer: its rid, and sid 10 in hex.
        assertEquals(10, SyncCookie.parse("rid=005,sid=00a").sid());
    }

    private static byte[] entryControlValue(Control control) throws Exception {
        SearchResultEntryImpl entry = new SearchResultEntryImpl(2);
        entry.setObjectName(new Dn("dc=example,dc=com"));
        entry.addControl(control);
        return controlValue(entry);
    }

    private static byte[] doneControlValue(Control control) throws Exception {
        SearchResultDoneImpl done = new SearchResultDoneImpl(2);
        done.getLdapResult().setResultCode(ResultCodeEnum.SUCCESS);
        done.addControl(control);
        return controlValue(done);
    }

    private static byte[] controlValue(Message message) throws Exception {
        ByteBuf pdu = new LdapMessageEncoder(LdapApiServiceFactory.getSingleton())
                .encode(UnpooledByteBufAllocator.DEFAULT, message);
        try {
            LDAPMessage decoded = LDAPMessage.decode(ASN1Element.decode(ByteBufUtil.getBytes(pdu)));
            return decoded.getControls().get(0).getValue().getValue();
        } finally {
            pdu.release();
        }
    }
}
