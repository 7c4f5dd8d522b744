package dev.larch.server.route;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import com.unboundid.ldap.sdk.AddRequest;
import com.unboundid.ldap.sdk.AsyncRequestID;
import com.unboundid.ldap.sdk.AsyncSearchResultListener;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.CompareRequest;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchResultReference;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.controls.SimplePagedResultsControl;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Dispatch concerns over the wire: controls (RFC 4511 section 4.1.11), unbind and abandon. */
class OperationRouterIT {
    private static final String PEOPLE = "ou=people," + TestServer.SUFFIX;

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree();

    @Test
    void unsupportedCriticalControlIsUnavailableCriticalExtension() throws Exception {
        try (LDAPConnection c = larch.server().admin()) {
            SearchRequest search = new SearchRequest(TestServer.SUFFIX, SearchScope.BASE, "(objectClass=*)");
            search.addControl(new Control("1.3.6.1.4.1.99999.1", true));
            assertEquals(
                    ResultCode.UNAVAILABLE_CRITICAL_EXTENSION,
                    assertThrows(LDAPException.class, () -> c.search(search)).getResultCode());

            // a control the server offers only on searches is refused on another operation
            CompareRequest paged = new CompareRequest(PEOPLE, "ou", "people");
            paged.addControl(new SimplePagedResultsControl(1, true));
            assertEquals(
                    ResultCode.UNAVAILABLE_CRITICAL_EXTENSION,
                    assertThrows(LDAPException.class, () -> c.compare(paged)).getResultCode());

            AddRequest add = new AddRequest("ou=controlled," + TestServer.SUFFIX, new Attribute[] {
                new Attribute("objectClass", "organizationalUnit"), new Attribute("ou", "controlled")
            });
            add.addControl(new Control("1.3.6.1.4.1.99999.2", true));
            assertEquals(
                    ResultCode.UNAVAILABLE_CRITICAL_EXTENSION,
                    assertThrows(LDAPException.class, () -> c.add(add)).getResultCode());
            assertNull(c.getEntry("ou=controlled," + TestServer.SUFFIX));
        }
    }

    @Test
    void unsupportedNonCriticalControlIsIgnored() throws Exception {
        try (LDAPConnection c = larch.server().anonymous()) {
            SearchRequest search = new SearchRequest(PEOPLE, SearchScope.BASE, "(objectClass=*)");
            search.addControl(new Control("1.3.6.1.4.1.99999.1", false));
            search.addControl(new SimplePagedResultsControl(1, false));
            assertEquals(1, c.search(search).getEntryCount());
        }
    }

    @Test
    void filterNestedThousandsDeepIsRefusedAndOtherConnectionsKeepWorking() throws Exception {
        Filter deep = Filter.createPresenceFilter("objectClass");
        for (int i = 0; i < 3000; i++) {
            deep = Filter.createNOTFilter(deep);
        }
        try (LDAPConnection c = larch.server().anonymous();
                LDAPConnection other = larch.server().anonymous()) {
            SearchRequest search = new SearchRequest(PEOPLE, SearchScope.BASE, deep);
            // The SDK encodes filters recursively: give the client a stack deep enough for 3000
            // levels, so what is tested is the server's refusal, not the client's stack.
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread client = new Thread(
                    null,
                    () -> {
                        try {
                            c.search(search);
                        } catch (Throwable t) {
                            thrown.set(t);
                        }
                    },
                    "deep-filter-client",
                    64L << 20);
            client.start();
            client.join(30_000);
            LDAPException refused = assertInstanceOf(LDAPException.class, thrown.get());
            ResultCode code = refused.getResultCode();
            assertEquals(
                    true,
                    code.equals(ResultCode.PROTOCOL_ERROR) || code.equals(ResultCode.SERVER_DOWN),
                    code.toString());
            assertEquals(
                    1, other.search(PEOPLE, SearchScope.BASE, "(objectClass=*)").getEntryCount());
        }
    }

    @Test
    void unbindClosesTheConnectionAndTheServerKeepsServing() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", larch.server().port())) {
            socket.setSoTimeout(5000);
            OutputStream out = socket.getOutputStream();
            // UnbindRequest: SEQUENCE { messageID 1, [APPLICATION 2] NULL }
            out.write(new byte[] {0x30, 0x05, 0x02, 0x01, 0x01, 0x42, 0x00});
            out.flush();
            InputStream in = socket.getInputStream();
            assertEquals(-1, in.read(), "the server closes without a response");
        }
        try (LDAPConnection c = larch.server().anonymous()) {
            assertEquals(
                    1, c.search(PEOPLE, SearchScope.BASE, "(objectClass=*)").getEntryCount());
        }
    }

    @Test
    void abandonOfAnUnknownMessageIdIsIgnored() throws Exception {
        try (LDAPConnection c = larch.server().anonymous()) {
            // abandoning a search that already completed names an ID the server no longer knows
            CompletableFuture<Void> done = new CompletableFuture<>();
            AsyncRequestID id = c.asyncSearch(new SearchRequest(
                    new AsyncSearchResultListener() {
                        private static final long serialVersionUID = 1L;

                        @Override
                        public void searchEntryReturned(SearchResultEntry entry) {}

                        @Override
                        public void searchReferenceReturned(SearchResultReference ref) {}

                        @Override
                        public void searchResultReceived(AsyncRequestID requestID, SearchResult result) {
                            done.complete(null);
                        }
                    },
                    PEOPLE,
                    SearchScope.BASE,
                    "(objectClass=*)"));
            done.get(10, TimeUnit.SECONDS);
            c.abandon(id);
            assertEquals(
                    1, c.search(PEOPLE, SearchScope.BASE, "(objectClass=*)").getEntryCount());
        }
    }
}
