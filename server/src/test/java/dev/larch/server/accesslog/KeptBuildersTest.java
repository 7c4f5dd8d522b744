package dev.larch.server.accesslog;

import java.net.InetSocketAddress;

import dev.larch.server.auth.PasswordAttributes;
import dev.larch.server.protocol.Session;
import org.apache.directory.api.ldap.model.filter.FilterParser;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.SearchRequestImpl;
import org.apache.directory.api.ldap.model.message.SearchResultDoneImpl;
import org.apache.directory.api.ldap.model.message.SearchScope;
import org.apache.directory.api.ldap.model.name.Dn;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The text lines' kept builders: each line starts empty, and a builder a long line grew is not kept. */
class KeptBuildersTest {
    private static final Session SESSION = new Session(3, new InetSocketAddress("127.0.0.1", 50000));

    private static String searchLine(String filter) throws Exception {
        SearchRequestImpl search = new SearchRequestImpl();
        search.setMessageId(4);
        search.setBase(new Dn("dc=example,dc=com"));
        search.setScope(SearchScope.SUBTREE);
        search.setFilter(FilterParser.parse(filter));
        SearchResultDoneImpl done = new SearchResultDoneImpl(4);
        done.getLdapResult().setResultCode(ResultCodeEnum.SUCCESS);
        String line =
                AccessLog.TEXT.completedLine(SESSION, search, done, 1, System.nanoTime(), PasswordAttributes.STANDARD);
        return line.substring(0, line.indexOf(" etime="));
    }

    @Test
    void aLineAfterALongerOneHoldsNothingOfIt() throws Exception {
        String longFilter = "(|" + "(uid=someone-with-a-long-name)".repeat(60) + ")";
        String longLine = searchLine(longFilter);
        assertTrue(longLine.length() > KeptBuilders.KEPT_CHARS, "the first line outgrows what is kept");
        assertTrue(longLine.endsWith(longFilter + "\" result=0 entries=1"), longLine);

        assertEquals(
                "conn=3 op=4 SEARCH base=\"dc=example,dc=com\" scope=sub filter=\"(&(uid=jdoe)(userPassword=***))\""
                        + " result=0 entries=1",
                searchLine("(&(uid=jdoe)(userPassword=secret))"));
        assertEquals(
                "conn=3 op=4 SEARCH base=\"dc=example,dc=com\" scope=sub filter=\"(mail=a@b)\" result=0 entries=1",
                searchLine("(mail=a@b)"));
    }

    @Test
    void aBuilderIsKeptUntilALineGrowsItPastTheBound() {
        StringBuilder first = KeptBuilders.line().append("conn=1 op=2 something");
        StringBuilder second = KeptBuilders.line();
        assertSame(first, second, "kept from one line to the next");
        assertEquals(0, second.length(), "and emptied");

        second.append("x".repeat(KeptBuilders.KEPT_CHARS + 1));
        StringBuilder third = KeptBuilders.line();
        assertNotSame(second, third, "a builder grown past the bound is dropped");
        assertTrue(third.capacity() <= KeptBuilders.KEPT_CHARS, String.valueOf(third.capacity()));
        assertNotSame(KeptBuilders.line(), KeptBuilders.filter(), "a line and its filter have builders of their own");
    }
}
