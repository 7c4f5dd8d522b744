package dev.larch.server.commit;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPResult;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ModifyRequest;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.experimental.DraftZeilengaLDAPNoOp12RequestControl;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Group commit over the wire: many connections modify at once against a server with durable writes;
 * every acknowledged change is there (also after a restart), the writes shared transactions (fewer
 * committed than writes, from cn=Monitor), and the writes that fail their checks or carry the no-op
 * control, mixed among the others, get their own answers and change nothing.
 */
class GroupCommitIT {
    private static final String PEOPLE = "ou=people," + TestServer.SUFFIX;
    private static final String STATISTICS = ",cn=Statistics,cn=Monitor";
    private static final int WRITERS = 32;
    private static final int ROUNDS = 24;

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree()
            .configured(TestServer::withDurableWrites)
            .adding(people());

    private static String people() {
        StringBuilder ldif = new StringBuilder();
        for (int w = 0; w < WRITERS; w++) {
            ldif.append("dn: ")
                    .append(dn(w))
                    .append("\nobjectClass: inetOrgPerson\nuid: writer")
                    .append(w)
                    .append("\ncn: Writer ")
                    .append(w)
                    .append("\nsn: W\n\n");
        }
        return ldif.toString();
    }

    private static String dn(int writer) {
        return "uid=writer" + writer + "," + PEOPLE;
    }

    /** What round {@code i} of a writer sends, and the answer it must get. */
    private enum Round {
        ADD_VALUE(ResultCode.SUCCESS),
        MISSING_ENTRY(ResultCode.NO_SUCH_OBJECT),
        NO_OPERATION(ResultCode.NO_OPERATION),
        SCHEMA_VIOLATION(ResultCode.OBJECT_CLASS_VIOLATION);

        /** The result code, as an int: an enum holds no mutable SDK objects. */
        final int expected;

        Round(ResultCode expected) {
            this.expected = expected.intValue();
        }

        static Round of(int i) {
            return switch (i % 6) {
                case 1 -> MISSING_ENTRY;
                case 3 -> NO_OPERATION;
                case 4 -> SCHEMA_VIOLATION;
                default -> ADD_VALUE;
            };
        }

        ModifyRequest request(int writer, int i) {
            String value = "w" + writer + "-" + i;
            return switch (this) {
                case ADD_VALUE ->
                    new ModifyRequest(dn(writer), new Modification(ModificationType.ADD, "description", value));
                case MISSING_ENTRY ->
                    new ModifyRequest(
                            "uid=absent" + writer + "," + PEOPLE,
                            new Modification(ModificationType.ADD, "description", value));
                case NO_OPERATION -> {
                    ModifyRequest r =
                            new ModifyRequest(dn(writer), new Modification(ModificationType.ADD, "description", value));
                    r.addControl(new DraftZeilengaLDAPNoOp12RequestControl());
                    yield r;
                }
                // sn is required by person: removing it fails the schema check, with a value added beside it.
                case SCHEMA_VIOLATION ->
                    new ModifyRequest(
                            dn(writer),
                            new Modification(ModificationType.ADD, "description", value),
                            new Modification(ModificationType.DELETE, "sn"));
            };
        }
    }

    private static LDAPResult resultOf(LDAPConnection c, ModifyRequest request) {
        try {
            return c.modify(request);
        } catch (LDAPException e) {
            return e.toLDAPResult();
        }
    }

    private static long counter(LDAPConnection admin, String rdn) throws LDAPException {
        SearchResultEntry e = admin.getEntry(rdn + STATISTICS, "monitorCounter");
        assertTrue(e != null && e.hasAttribute("monitorCounter"), rdn + " has no monitorCounter");
        return Long.parseLong(e.getAttributeValue("monitorCounter"));
    }

    @Test
    void manyConcurrentWritersShareCommitsAndEveryAcknowledgedChangeStays() throws Exception {
        TestServer server = larch.server();
        long transactionsBefore;
        long operationsBefore;
        try (LDAPConnection admin = server.admin()) {
            transactionsBefore = counter(admin, "cn=Write Transactions");
            operationsBefore = counter(admin, "cn=Write Operations");
        }

        ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
        CyclicBarrier go = new CyclicBarrier(WRITERS);
        Map<Integer, Set<String>> acknowledged = new ConcurrentHashMap<>();
        Map<String, Integer> wrong = new ConcurrentHashMap<>();
        AtomicInteger successes = new AtomicInteger();
        List<Future<?>> tasks = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            int writer = w;
            tasks.add(pool.submit(() -> {
                Set<String> mine = new HashSet<>();
                try (LDAPConnection c = server.admin()) {
                    go.await(20, TimeUnit.SECONDS);
                    for (int i = 0; i < ROUNDS; i++) {
                        Round round = Round.of(i);
                        LDAPResult result = resultOf(c, round.request(writer, i));
                        if (result.getResultCode().intValue() != round.expected) {
                            wrong.merge(round + " got " + result.getResultCode(), 1, Integer::sum);
                        } else if (round == Round.ADD_VALUE) {
                            mine.add("w" + writer + "-" + i);
                            successes.incrementAndGet();
                        }
                    }
                }
                acknowledged.put(writer, mine);
                return null;
            }));
        }
        for (Future<?> task : tasks) {
            try {
                task.get(120, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                wrong.merge(String.valueOf(e.getCause()), 1, Integer::sum);
            }
        }
        pool.shutdown();
        assertEquals(Map.of(), new TreeMap<>(wrong));
        assertEquals(WRITERS * (ROUNDS / 2), successes.get());

        try (LDAPConnection admin = server.admin()) {
            assertEveryAcknowledgedValueAndNothingElse(admin, acknowledged);
            long transactions = counter(admin, "cn=Write Transactions") - transactionsBefore;
            long operations = counter(admin, "cn=Write Operations") - operationsBefore;
            // Only the acknowledged adds committed: the failed and no-op ones discarded their changes.
            assertEquals(successes.get(), operations);
            assertTrue(
                    transactions < operations,
                    "writes shared transactions: " + transactions + " for " + operations + " writes");
        }

        server.restart();

        try (LDAPConnection admin = server.admin()) {
            assertEveryAcknowledgedValueAndNothingElse(admin, acknowledged);
        }
    }

    private static void assertEveryAcknowledgedValueAndNothingElse(
            LDAPConnection admin, Map<Integer, Set<String>> acknowledged) throws LDAPException {
        for (int w = 0; w < WRITERS; w++) {
            SearchResultEntry entry = admin.getEntry(dn(w), "description", "sn");
            Set<String> stored = new HashSet<>();
            String[] values = entry.getAttributeValues("description");
            if (values != null) {
                stored.addAll(List.of(values));
            }
            assertEquals(acknowledged.get(w), stored, dn(w));
            assertEquals("W", entry.getAttributeValue("sn"), "the schema violations changed nothing");
        }
    }
}
