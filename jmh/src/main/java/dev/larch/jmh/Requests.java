package dev.larch.jmh;

import java.nio.ByteBuffer;

import dev.larch.jmh.data.People;
import org.apache.directory.api.asn1.util.Asn1Buffer;
import org.apache.directory.api.ldap.codec.api.LdapApiService;
import org.apache.directory.api.ldap.codec.api.LdapEncoder;
import org.apache.directory.api.ldap.model.message.AliasDerefMode;
import org.apache.directory.api.ldap.model.message.Message;
import org.apache.directory.api.ldap.model.message.SearchRequest;
import org.apache.directory.api.ldap.model.message.SearchRequestImpl;
import org.apache.directory.api.ldap.model.message.SearchScope;
import org.apache.directory.api.ldap.model.name.Dn;

/** Request PDUs for the protocol benchmarks, encoded by the same codec the server decodes with. */
public final class Requests {
    private Requests() {}

    /** {@code ldapsearch -b dc=example,dc=com -s sub '(uid=<uid>)'}: all user attributes. */
    public static SearchRequest exactMatch(int messageId, String uid) {
        try {
            SearchRequest search = new SearchRequestImpl();
            search.setMessageId(messageId);
            search.setBase(new Dn(People.SUFFIX));
            search.setScope(SearchScope.SUBTREE);
            search.setDerefAliases(AliasDerefMode.NEVER_DEREF_ALIASES);
            search.setFilter("(uid=" + uid + ")");
            return search;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    public static byte[] encode(LdapApiService codec, Message message) {
        try {
            ByteBuffer encoded = LdapEncoder.encodeMessage(new Asn1Buffer(), codec, message);
            byte[] bytes = new byte[encoded.remaining()];
            encoded.get(bytes);
            return bytes;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
