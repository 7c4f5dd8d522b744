package dev.larch.server;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.unboundid.ldap.sdk.AsyncRequestID;
import com.unboundid.ldap.sdk.AsyncSearchResultListener;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchResultReference;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.config.LarchConfig;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Closing the server while a search is paused on a client that stopped reading and writes are in
 * flight neither crashes the JVM nor loses an acknowledged write.
 */
class ShutdownIT {
    private static final String PEOPLE = "ou=people," + TestServer.SUFFIX;

    @TempDir
    Path dir;

    private static String people(int count) {
        StringBuilder ldif = new StringBuilder(TestServer.BASE_LDIF).append('\n');
        String padding = "x".repeat(2000);
        for (int i = 0; i < count; i++) {
            ldif.append("dn: uid=u")
                    .append(i)
                    .append(',')
                    .append(PEOPLE)
                    .append("\nobjectClass: inetOrgPerson\nuid: u")
                    .append(i)
                    .append("\ncn: u\nsn: u\ndescription: ")
                    .append(padding)
                    .append("\n\n");
        }
        return ldif.toString();
    }

    /** Blocks the connection's reader on the first entry, so the server must pause the search. */
    private static final class StalledListener implements AsyncSearchResultListener {
        private static final long serialVersionUID = 1L;
        final transient CountDownLatch firstEntry = new CountDownLatch(1);
        final transient CountDownLatch release = new CountDownLatch(1);

        @Override
        public void searchEntryReturned(SearchResultEntry entry) {
            firstEntry.countDown();
            try {
                release.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void searchReferenceReturned(SearchResultReference reference) {}

        @Override
        public void searchResultReceived(AsyncRequestID requestID, SearchResult result) {}
    }

    @Test
    void closingDuringAPausedSearchAndInFlightWritesKeepsEveryAcknowledgedWrite() throws Exception {
        LarchConfig config = TestServer.withDurableWrites(TestServer.settings(dir.resolve("data")))
                .build();
        TestServer.importOffline(config, people(3000));
        TestServer server = TestServer.start(config);
        List<String> acknowledged = new CopyOnWriteArrayList<>();
        StalledListener stalled = new StalledListener();
        try (LDAPConnection reader = server.admin();
                LDAPConnection writer = server.admin()) {
            reader.asyncSearch(new SearchRequest(stalled, PEOPLE, SearchScope.ONE, "(objectClass=inetOrgPerson)"));
            assertTrue(stalled.firstEntry.await(30, TimeUnit.SECONDS));

            CountDownLatch someWritten = new CountDownLatch(20);
            Thread writes = new Thread(() -> {
                for (int i = 0; ; i++) {
                    String dn = "uid=w" + i + "," + PEOPLE;
                    try {
                        writer.add(new Entry(
                                dn,
                                new Attribute("objectClass", "inetOrgPerson"),
                                new Attribute("uid", "w" + i),
                                new Attribute("cn", "w"),
                                new Attribute("sn", "w")));
                        acknowledged.add(dn);
                        someWritten.countDown();
                    } catch (LDAPException e) {
                        return; // the server stopped
                    }
                }
            });
            writes.start();
            assertTrue(someWritten.await(60, TimeUnit.SECONDS));

            server.close();
            stalled.release.countDown();
            writes.join(TimeUnit.SECONDS.toMillis(60));
        }

        server.restart();
        try (LDAPConnection admin = server.admin()) {
            for (String dn : acknowledged) {
                assertNotNull(admin.getEntry(dn, "1.1"), dn);
            }
            assertNotNull(admin.getEntry("uid=u2999," + PEOPLE, "1.1"));
        } finally {
            server.close();
        }
    }

    @Test
    void stoppingDoesNotWaitForASearchPausedOnAClientThatDoesNotRead() throws Exception {
        LarchConfig config = TestServer.config(dir.resolve("data"));
        TestServer.importOffline(config, people(3000));
        TestServer server = TestServer.start(config);
        ListAppender<ILoggingEvent> listenerLog = new ListAppender<>();
        listenerLog.start();
        Logger logger = (Logger) LoggerFactory.getLogger("dev.larch.server.net.LdapListener");
        logger.addAppender(listenerLog);
        StalledListener stalled = new StalledListener();
        try (LDAPConnection reader = server.admin()) {
            reader.asyncSearch(new SearchRequest(stalled, PEOPLE, SearchScope.ONE, "(objectClass=inetOrgPerson)"));
            assertTrue(stalled.firstEntry.await(30, TimeUnit.SECONDS));
            server.close();
            stalled.release.countDown();
        } finally {
            logger.detachAppender(listenerLog);
        }
        synchronized (listenerLog) {
            assertTrue(
                    listenerLog.list.stream()
                            .noneMatch(e -> e.getFormattedMessage().contains("still running")),
                    "the listener waited out its grace for the paused search: " + listenerLog.list);
        }
    }
}
