package dev.larch.server;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Entry;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Several clients writing and reading at once: every operation succeeds, and afterwards the
 * tree, its indexes and a shared counter agree with what was acknowledged.
 */
class ConcurrencyIT {
    private static final String PEOPLE = "ou=people," + TestServer.SUFFIX;
    private static final String COUNTER = "uid=counter," + PEOPLE;
    private static final int WRITERS = 4;
    private static final int READERS = 2;
    private static final int PER_WRITER = 20;

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree()
            .adding("dn: " + COUNTER + "\nobjectClass: inetOrgPerson\nobjectClass: posixAccount\nuid: counter\n"
                    + "cn: counter\nsn: counter\nuidNumber: 0\ngidNumber: 0\nhomeDirectory: /\n");

    @Test
    void concurrentWritersAndReadersLeaveAConsistentTree() throws Exception {
        TestServer server = larch.server();
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS + READERS);
        CyclicBarrier go = new CyclicBarrier(WRITERS + READERS);
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicInteger writersLeft = new AtomicInteger(WRITERS);
        Map<String, Integer> failures = new ConcurrentHashMap<>();
        List<Future<?>> tasks = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            int writer = w;
            tasks.add(pool.submit(() -> {
                try (LDAPConnection c = server.admin()) {
                    go.await(10, TimeUnit.SECONDS);
                    for (int i = 0; i < PER_WRITER; i++) {
                        String uid = "w" + writer + "n" + i;
                        String dn = "uid=" + uid + "," + PEOPLE;
                        c.add(new Entry(dn, new Attribute[] {
                            new Attribute("objectClass", "inetOrgPerson"),
                            new Attribute("uid", uid),
                            new Attribute("cn", "Writer " + writer),
                            new Attribute("sn", "N" + i)
                        }));
                        c.modify(dn, new Modification(ModificationType.ADD, "mail", uid + "@example.com"));
                        c.modify(COUNTER, new Modification(ModificationType.INCREMENT, "uidNumber", "1"));
                        if (i % 4 == 3) {
                            c.delete(dn);
                        } else if (i % 4 == 2) {
                            c.modifyDN(dn, "uid=" + uid + "r", true);
                        }
                    }
                } finally {
                    if (writersLeft.decrementAndGet() == 0) {
                        writing.set(false);
                    }
                }
                return null;
            }));
        }
        for (int r = 0; r < READERS; r++) {
            tasks.add(pool.submit(() -> {
                try (LDAPConnection c = server.anonymous()) {
                    go.await(10, TimeUnit.SECONDS);
                    while (writing.get()) {
                        SearchResult all = c.search(PEOPLE, SearchScope.ONE, "(objectClass=inetOrgPerson)", "mail");
                        for (SearchResultEntry e : all.getSearchEntries()) {
                            // an entry is never seen half-written: a mail value, if any, names its own uid
                            String mail = e.getAttributeValue("mail");
                            if (mail != null && !e.getDN().startsWith("uid=" + mail.substring(0, mail.indexOf('@')))) {
                                failures.merge("torn entry " + e.getDN(), 1, Integer::sum);
                            }
                        }
                        c.search(PEOPLE, SearchScope.SUB, "(cn=writer*)", "1.1");
                        c.compare(COUNTER, "sn", "counter");
                        // a throttle, not a wait for anything: leave the two CI cores to the writers too
                        Thread.sleep(2);
                    }
                }
                return null;
            }));
        }
        for (Future<?> task : tasks) {
            try {
                task.get(60, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                failures.merge(String.valueOf(e.getCause()), 1, Integer::sum);
            }
        }
        pool.shutdown();
        assertEquals(Map.of(), failures);

        try (LDAPConnection admin = server.admin()) {
            assertEquals(
                    String.valueOf(WRITERS * PER_WRITER),
                    admin.getEntry(COUNTER).getAttributeValue("uidNumber"));
            int kept = WRITERS * (PER_WRITER - PER_WRITER / 4);
            assertEquals(kept, count(admin, "(cn=writer*)"));
            assertEquals(kept, count(admin, "(mail=*)"));
            assertEquals(
                    kept + 1,
                    admin.search(PEOPLE, SearchScope.ONE, "(objectClass=*)", "1.1")
                            .getEntryCount());
            assertEquals(WRITERS * PER_WRITER / 4, count(admin, "(uid=w*r)"));
            for (int w = 0; w < WRITERS; w++) {
                assertEquals(PER_WRITER - PER_WRITER / 4, count(admin, "(cn=Writer " + w + ")"));
                assertTrue(admin.getEntry("uid=w" + w + "n2r," + PEOPLE) != null);
                assertTrue(admin.getEntry("uid=w" + w + "n3," + PEOPLE) == null);
            }
        }
    }

    private static int count(LDAPConnection c, String filter) throws LDAPException {
        return c.search(TestServer.SUFFIX, SearchScope.SUB, filter, "1.1").getEntryCount();
    }
}
