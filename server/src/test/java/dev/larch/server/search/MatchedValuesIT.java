package dev.larch.server.search;

import java.util.List;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.controls.MatchedValuesFilter;
import com.unboundid.ldap.sdk.controls.MatchedValuesRequestControl;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The matched values control (RFC 3876): only the values the filter items match are returned. */
class MatchedValuesIT {
    static final String DN = "uid=multi,ou=people," + TestServer.SUFFIX;

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree()
            .adding("dn: " + DN + "\nobjectClass: inetOrgPerson\nuid: multi\ncn: Barbara Jensen\ncn: Babs Jensen\n"
                    + "sn: Jensen\nmail: b@example.com\nmail: babs@example.org\ntelephoneNumber: +1 555 0100\n"
                    + "userPassword: secret-m\n");

    private static SearchResultEntry read(LDAPConnection c, Control control, String... attributes) throws Exception {
        SearchRequest search = new SearchRequest(DN, SearchScope.BASE, "(objectClass=*)", attributes);
        search.addControl(control);
        SearchResult result = c.search(search);
        assertEquals(1, result.getEntryCount(), "the control never changes which entries are returned");
        return result.getSearchEntries().get(0);
    }

    private static Control matching(String... filters) throws Exception {
        MatchedValuesFilter[] items = new MatchedValuesFilter[filters.length];
        for (int i = 0; i < filters.length; i++) {
            items[i] = MatchedValuesFilter.create(Filter.create(filters[i]));
        }
        return new MatchedValuesRequestControl(true, items);
    }

    @Test
    void onlyMatchingValuesAreReturnedUsingTheAttributesMatchingRules() throws Exception {
        try (LDAPConnection c = larch.server().admin()) {
            // caseIgnoreMatch: the item's case does not matter; the value comes back as stored.
            SearchResultEntry e = read(c, matching("(cn=BABS JENSEN)"), "cn", "sn");
            assertArrayEquals(new String[] {"Babs Jensen"}, e.getAttributeValues("cn"));
            // No item names sn: it is returned with an empty set of values.
            assertTrue(e.hasAttribute("sn"));
            assertEquals(0, e.getAttributeValues("sn").length);
        }
    }

    @Test
    void eachKindOfSimpleItemSelectsValues() throws Exception {
        try (LDAPConnection c = larch.server().admin()) {
            assertArrayEquals(
                    new String[] {"babs@example.org"},
                    read(c, matching("(mail=*.org)"), "mail").getAttributeValues("mail"));
            assertArrayEquals(
                    new String[] {"Barbara Jensen", "Babs Jensen"},
                    read(c, matching("(cn=*)"), "cn").getAttributeValues("cn"));
            // cn has no ordering rule: an ordering item is Undefined for every value, so none is kept.
            assertEquals(0, read(c, matching("(cn>=A)"), "cn").getAttributeValues("cn").length);
            assertEquals(0, read(c, matching("(cn<=Z)"), "cn").getAttributeValues("cn").length);
            assertArrayEquals(
                    new String[] {"Babs Jensen"},
                    read(c, matching("(cn~=babs jensen)"), "cn").getAttributeValues("cn"));
            assertArrayEquals(
                    new String[] {"Barbara Jensen"},
                    read(c, matching("(cn:caseExactMatch:=Barbara Jensen)"), "cn")
                            .getAttributeValues("cn"));
            // telephoneNumberMatch ignores spaces and hyphens.
            assertArrayEquals(
                    new String[] {"+1 555 0100"},
                    read(c, matching("(telephoneNumber=+15550100)"), "telephoneNumber")
                            .getAttributeValues("telephoneNumber"));
        }
    }

    @Test
    void itemsAreAUnionAndNameSupertypes() throws Exception {
        try (LDAPConnection c = larch.server().admin()) {
            SearchResultEntry e = read(c, matching("(name=Barbara*)", "(mail=b@*)"), "cn", "mail");
            assertArrayEquals(new String[] {"Barbara Jensen"}, e.getAttributeValues("cn"), "cn is a subtype of name");
            assertArrayEquals(new String[] {"b@example.com"}, e.getAttributeValues("mail"));
        }
    }

    @Test
    void valuesTheClientMayNotReadStayHidden() throws Exception {
        try (LDAPConnection c = larch.server().boundAs(DN, "secret-m")) {
            SearchResultEntry e = read(c, matching("(userPassword=*)", "(cn=*)"), "*");
            assertEquals(null, e.getAttribute("userPassword"));
            assertNotNull(e.getAttribute("cn"));
        }
    }

    @Test
    void andOrNotAndMalformedValuesAreProtocolErrors() throws Exception {
        byte[][] malformed = {
            {0x30, 0x05, (byte) 0xA0, 0x03, (byte) 0x87, 0x01, 'c'}, // and
            {0x30, 0x05, (byte) 0xA1, 0x03, (byte) 0x87, 0x01, 'c'}, // or
            {0x30, 0x05, (byte) 0xA2, 0x03, (byte) 0x87, 0x01, 'c'}, // not
            {0x30, 0x00}, // no item
            {(byte) 0x87, 0x02, 'c', 'n'}, // an item without the SEQUENCE OF
            {0x30, 0x04, (byte) 0x87, 0x02, 'c', 'n', 0x00}, // trailing octet
            {0x30, 0x04, (byte) 0x87, 0x05, 'c', 'n'}, // item longer than the sequence
            {0x30, 0x04, 0x04, 0x02, 'c', 'n'}, // an OCTET STRING is no filter item
            {0x30, 0x05, (byte) 0xA3, 0x03, 0x04, 0x01, 'c'}, // equality without its value
            {},
        };
        try (LDAPConnection c = larch.server().admin()) {
            for (byte[] value : malformed) {
                SearchRequest search = new SearchRequest(DN, SearchScope.BASE, "(objectClass=*)");
                search.addControl(new Control(
                        MatchedValuesRequestControl.MATCHED_VALUES_REQUEST_OID, true, new ASN1OctetString(value)));
                assertEquals(
                        ResultCode.PROTOCOL_ERROR,
                        assertThrows(LDAPException.class, () -> c.search(search))
                                .getResultCode(),
                        List.of(value).toString());
            }
        }
    }
}
