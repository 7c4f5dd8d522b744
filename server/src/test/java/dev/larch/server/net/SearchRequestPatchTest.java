package dev.larch.server.net;

import java.util.List;

import com.unboundid.ldap.protocol.ExtendedRequestProtocolOp;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.SearchRequestProtocolOp;
import com.unboundid.ldap.sdk.DereferencePolicy;
import com.unboundid.ldap.sdk.ExtendedRequest;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.server.protocol.AbsoluteFilters;
import dev.larch.server.protocol.SubordinateScope;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.apache.directory.api.ldap.codec.api.LdapApiServiceFactory;
import org.apache.directory.api.ldap.model.filter.AndNode;
import org.apache.directory.api.ldap.model.filter.NotNode;
import org.apache.directory.api.ldap.model.filter.PresenceNode;
import org.apache.directory.api.ldap.model.message.SearchRequest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the Apache decoder refuses as it is and the server answers: the subordinates scope, the
 * absolute true and false filters of RFC 4526, and the name of an extended request it has no factory for.
 */
class SearchRequestPatchTest {

    private static Object decode(LDAPMessage message) {
        EmbeddedChannel ch = new EmbeddedChannel(
                new LdapFrameDecoder(1 << 20),
                new LdapMessageDecoder(LdapApiServiceFactory.getSingleton(), 1 << 20, 50));
        ch.writeInbound(Unpooled.wrappedBuffer(message.encode().encode()));
        Object decoded = ch.readInbound();
        assertFalse(ch.finishAndReleaseAll());
        return decoded;
    }

    private static LDAPMessage search(SearchScope scope, Filter filter) {
        return new LDAPMessage(
                7,
                new SearchRequestProtocolOp(
                        "ou=a,dc=example,dc=com", scope, DereferencePolicy.NEVER, 0, 0, false, filter, List.of("cn")));
    }

    @Test
    void subordinateScopeBecomesAMarkedSubtreeSearch() {
        SearchRequest r = assertInstanceOf(
                SearchRequest.class,
                decode(search(SearchScope.SUBORDINATE_SUBTREE, Filter.createPresenceFilter("cn"))));
        assertEquals(org.apache.directory.api.ldap.model.message.SearchScope.SUBTREE, r.getScope());
        assertTrue(SubordinateScope.requested(r));
        assertEquals(7, r.getMessageId());
        assertEquals("ou=a,dc=example,dc=com", r.getBase().getName());

        SearchRequest plain = assertInstanceOf(
                SearchRequest.class, decode(search(SearchScope.SUB, Filter.createPresenceFilter("cn"))));
        assertFalse(SubordinateScope.requested(plain));
    }

    @Test
    void absoluteFiltersBecomeMarkerPresenceFiltersAtAnyDepth() {
        SearchRequest r = assertInstanceOf(
                SearchRequest.class,
                decode(search(
                        SearchScope.SUB,
                        Filter.createANDFilter(
                                Filter.createANDFilter(),
                                Filter.createNOTFilter(Filter.createORFilter()),
                                Filter.createEqualityFilter("cn", "x".repeat(300))))));
        AndNode and = assertInstanceOf(AndNode.class, r.getFilter());
        assertEquals(
                AbsoluteFilters.TRUE_ATTRIBUTE,
                assertInstanceOf(PresenceNode.class, and.getChildren().get(0)).getAttribute());
        NotNode not = assertInstanceOf(NotNode.class, and.getChildren().get(1));
        assertEquals(
                AbsoluteFilters.FALSE_ATTRIBUTE,
                assertInstanceOf(PresenceNode.class, not.getFirstChild()).getAttribute());
        assertEquals(3, and.getChildren().size());
        assertEquals(List.of("cn"), List.copyOf(r.getAttributes()));
    }

    @Test
    void unknownExtendedRequestKeepsItsName() throws Exception {
        Object decoded = decode(new LDAPMessage(3, new ExtendedRequestProtocolOp(new ExtendedRequest("1.2.3.4"))));
        assertEquals(
                "1.2.3.4",
                assertInstanceOf(org.apache.directory.api.ldap.model.message.ExtendedRequest.class, decoded)
                        .getRequestName());
    }
}
