package dev.larch.server.protocol;

import java.nio.ByteBuffer;
import java.util.function.IntFunction;

import org.apache.directory.api.asn1.util.Asn1Buffer;
import org.apache.directory.api.ldap.codec.api.LdapApiService;
import org.apache.directory.api.ldap.codec.api.LdapApiServiceFactory;
import org.apache.directory.api.ldap.codec.api.LdapEncoder;
import org.apache.directory.api.ldap.model.message.ReferralImpl;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.SearchResultDone;
import org.apache.directory.api.ldap.model.message.SearchResultDoneImpl;
import org.apache.directory.api.ldap.model.message.controls.PagedResultsImpl;
import org.apache.directory.api.ldap.model.name.Dn;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A {@link SearchDone} holds and encodes as the API's own done does, controls and parameters included. */
class SearchDoneTest {
    private static final LdapApiService CODEC = LdapApiServiceFactory.getSingleton();

    /** The API encoder's PDU for a done made by {@code make}, filled the same way each time. */
    private static byte[] encoded(IntFunction<SearchResultDone> make, int shape) throws Exception {
        SearchResultDone done = make.apply(7);
        done.getLdapResult().setResultCode(ResultCodeEnum.NO_SUCH_OBJECT);
        done.getLdapResult().setDiagnosticMessage("no such entry: cn=x,dc=example,dc=com");
        if (shape >= 1) {
            done.getLdapResult().setMatchedDn(new Dn("dc=example,dc=com"));
        }
        if (shape >= 2) {
            ReferralImpl referral = new ReferralImpl();
            referral.addLdapUrl("ldap://other.example.com/dc=example,dc=com");
            done.getLdapResult().setReferral(referral);
        }
        if (shape >= 3) {
            PagedResultsImpl paged = new PagedResultsImpl();
            paged.setSize(0);
            paged.setCookie(new byte[] {1, 2, 3});
            done.addControl(paged);
        }
        done.setMessageId(9);
        ByteBuffer buffer = LdapEncoder.encodeMessage(new Asn1Buffer(), CODEC, done);
        byte[] out = new byte[buffer.remaining()];
        buffer.get(out);
        return out;
    }

    @Test
    void itEncodesAsTheApisDoneByteForByte() throws Exception {
        for (int shape = 0; shape <= 3; shape++) {
            assertArrayEquals(
                    encoded(SearchResultDoneImpl::new, shape), encoded(SearchDone::new, shape), "shape " + shape);
        }
    }

    @Test
    void controlsAndParametersAreKeptOnceGiven() {
        SearchDone done = new SearchDone(3);
        assertTrue(done.getControls().isEmpty());
        assertFalse(done.hasControl(PagedResultsImpl.OID));
        assertNull(done.getControl(PagedResultsImpl.OID));
        assertNull(done.get("key"));

        PagedResultsImpl paged = new PagedResultsImpl();
        done.addControl(paged);
        assertNull(done.put("key", 1));

        assertSame(paged, done.getControl(PagedResultsImpl.OID));
        assertTrue(done.hasControl(PagedResultsImpl.OID));
        assertEquals(1, done.getControls().size());
        assertEquals(1, done.get("key"));
        done.removeControl(paged);
        assertTrue(done.getControls().isEmpty());
        assertEquals(3, done.getMessageId());
    }
}
