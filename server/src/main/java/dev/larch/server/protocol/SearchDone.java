package dev.larch.server.protocol;

import org.apache.directory.api.ldap.model.message.LdapResult;
import org.apache.directory.api.ldap.model.message.LdapResultImpl;
import org.apache.directory.api.ldap.model.message.MessageTypeEnum;
import org.apache.directory.api.ldap.model.message.SearchResultDone;

/**
 * A SearchResultDone as the API's {@code SearchResultDoneImpl} holds it (its {@link LdapResult}, its
 * controls), without the two maps made up front ({@link BareResponse}): every search ends with one,
 * and most carry no control. Encoded like any other done.
 *
 * <p>Not thread-safe: one operation builds and sends it.
 */
public final class SearchDone extends BareResponse implements SearchResultDone {
    private final LdapResult result = new LdapResultImpl();

    public SearchDone(int messageId) {
        super(messageId, MessageTypeEnum.SEARCH_RESULT_DONE);
    }

    @Override
    public LdapResult getLdapResult() {
        return result;
    }

    @Override
    public String toString() {
        return describe("    Search Result Done\n" + result);
    }
}
