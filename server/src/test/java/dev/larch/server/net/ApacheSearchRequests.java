package dev.larch.server.net;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.apache.directory.api.asn1.util.Asn1Buffer;
import org.apache.directory.api.ldap.codec.api.LdapApiService;
import org.apache.directory.api.ldap.codec.api.LdapEncoder;
import org.apache.directory.api.ldap.model.exception.LdapSchemaException;
import org.apache.directory.api.ldap.model.filter.AndNode;
import org.apache.directory.api.ldap.model.filter.ApproximateNode;
import org.apache.directory.api.ldap.model.filter.EqualityNode;
import org.apache.directory.api.ldap.model.filter.ExprNode;
import org.apache.directory.api.ldap.model.filter.GreaterEqNode;
import org.apache.directory.api.ldap.model.filter.LessEqNode;
import org.apache.directory.api.ldap.model.filter.NotNode;
import org.apache.directory.api.ldap.model.filter.OrNode;
import org.apache.directory.api.ldap.model.filter.PresenceNode;
import org.apache.directory.api.ldap.model.filter.SubstringNode;
import org.apache.directory.api.ldap.model.message.AliasDerefMode;
import org.apache.directory.api.ldap.model.message.SearchRequestImpl;
import org.apache.directory.api.ldap.model.message.SearchScope;
import org.apache.directory.api.ldap.model.name.Dn;

import static java.nio.charset.StandardCharsets.UTF_8;

/** Random SearchRequests built in the Apache model and written by the Apache encoder (see {@link RandomSearchRequests}). */
final class ApacheSearchRequests {

    private static final String[] VALID_BASES = {
        "", "dc=example,dc=com", "cn=Émile Zola,o=Société", "UID=User.1+CN=Jo\\2C Doe,ou=People,dc=example,dc=com"
    };

    private final RandomSearchRequests requests;

    private ApacheSearchRequests(RandomSearchRequests requests) {
        this.requests = requests;
    }

    /** A request as the Apache encoder writes it: the encoder the server answers with. */
    static byte[] encoded(RandomSearchRequests requests, LdapApiService codec) throws Exception {
        return new ApacheSearchRequests(requests).encode(codec);
    }

    private byte[] encode(LdapApiService codec) throws Exception {
        SearchRequestImpl search = new SearchRequestImpl();
        search.setMessageId(requests.random.nextInt(1000));
        String base = requests.pick(VALID_BASES);
        search.setBase(base.isEmpty() ? Dn.EMPTY_DN : new Dn(base));
        search.setScope(SearchScope.getSearchScope(requests.random.nextInt(3)));
        search.setDerefAliases(AliasDerefMode.getDerefMode(requests.random.nextInt(4)));
        search.setSizeLimit(requests.limit());
        search.setTimeLimit(requests.limit());
        search.setTypesOnly(requests.random.nextBoolean());
        search.setFilter(apacheFilter(1 + requests.random.nextInt(4)));
        for (int i = requests.random.nextInt(3); i > 0; i--) {
            search.addAttributes(requests.pick(RandomSearchRequests.ATTRIBUTES));
        }
        ByteBuffer encoded = LdapEncoder.encodeMessage(new Asn1Buffer(), codec, search);
        byte[] bytes = new byte[encoded.remaining()];
        encoded.get(bytes);
        return bytes;
    }

    private ExprNode apacheFilter(int depth) throws LdapSchemaException {
        int choice = requests.random.nextInt(depth > 1 ? 10 : 7);
        String attribute = requests.pick(RandomSearchRequests.ATTRIBUTES);
        return switch (choice) {
            case 0 -> new EqualityNode<>(attribute, requests.value());
            case 1 -> new GreaterEqNode<>(attribute, requests.value());
            case 2 -> new LessEqNode<>(attribute, requests.value());
            case 3 -> new ApproximateNode<>(attribute, requests.value());
            case 4 -> new PresenceNode(attribute);
            case 5, 6 -> apacheSubstrings(attribute);
            case 7 -> new AndNode(apacheChildren(depth));
            case 8 -> new OrNode(apacheChildren(depth));
            default -> new NotNode(apacheFilter(depth - 1));
        };
    }

    private List<ExprNode> apacheChildren(int depth) throws LdapSchemaException {
        List<ExprNode> children = new ArrayList<>();
        for (int i = 1 + requests.random.nextInt(3); i > 0; i--) {
            children.add(apacheFilter(depth - 1));
        }
        return children;
    }

    private ExprNode apacheSubstrings(String attribute) {
        String initial = requests.random.nextBoolean() ? new String(requests.part(), UTF_8) : null;
        List<String> any = new ArrayList<>();
        for (int i = requests.random.nextInt(3); i > 0; i--) {
            any.add(new String(requests.part(), UTF_8));
        }
        String last = requests.random.nextBoolean() || (initial == null && any.isEmpty())
                ? new String(requests.part(), UTF_8)
                : null;
        return new SubstringNode(any, attribute, initial, last);
    }
}
