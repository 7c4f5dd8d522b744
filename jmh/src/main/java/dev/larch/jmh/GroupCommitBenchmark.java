package dev.larch.jmh;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.larch.jmh.data.GeneratedDirectory;
import dev.larch.jmh.data.People;
import dev.larch.server.StoredDirectory;
import dev.larch.server.commit.WriteQueue;
import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.protocol.Operation;
import dev.larch.server.protocol.Session;
import dev.larch.server.store.ReadTxn;
import io.netty.util.concurrent.EventExecutor;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.message.ModifyRequest;
import org.apache.directory.api.ldap.model.message.ModifyRequestImpl;
import org.apache.directory.api.ldap.model.message.Response;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Modifies through the {@link WriteQueue} from N writer threads, each waiting for its answer as a
 * client waits, on a store of {@code entries} people opened with durable writes (one sync per
 * committed transaction, as the server runs by default). Each modify replaces the {@code description}
 * of a random person, as {@code ./larch bench --mix modify} does: the entry loaded, rewritten and its
 * index keys updated in the write transaction.
 *
 * <p>{@code maxOperations = 1} commits each write alone (one sync each, as before group commit); the
 * default bound lets the writes that wait share a transaction and its sync. The score is writes per
 * second over all threads. The store lives in a temporary directory on the default file system, so
 * the sync costs what that disk charges for it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {Jvm.OPEN_NIO, Jvm.OPEN_NIO_CH, Jvm.NATIVE_ACCESS, Jvm.HEAP_MIN, Jvm.HEAP_MAX, Jvm.PRE_TOUCH})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class GroupCommitBenchmark {
    /** The most writes one transaction holds: 1 (each alone) or the default. */
    @Param({"1", "256"})
    public int maxOperations;

    /** People in the store; at least one full unit ({@value People#PER_UNIT}). */
    @Param("10000")
    public int entries;

    private GeneratedDirectory store;
    private StoredDirectory open;
    private WriteQueue writes;
    private long[] ids;

    @Setup(Level.Trial)
    public void setUp() {
        if (entries < People.PER_UNIT) {
            throw new IllegalArgumentException("entries must be at least " + People.PER_UNIT + ", was " + entries);
        }
        store = GeneratedDirectory.create(entries, true);
        open = store.open();
        ids = new long[entries];
        Directory directory = open.directory();
        try (ReadTxn txn = open.store().read()) {
            for (int i = 0; i < entries; i++) {
                ids[i] = directory.require(txn, directory.schemaNormalizer().dn(People.dn(i)));
            }
        }
        writes = new WriteQueue(open.store(), maxOperations);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        long transactions = writes.transactionsCommitted();
        long operations = writes.operationsCommitted();
        writes.close();
        store.close();
        System.out.printf(
                "%n[larch-jmh] maxOperations %d: %,d writes in %,d transactions (%.1f per commit)%n",
                maxOperations, operations, transactions, operations / (double) Math.max(1, transactions));
    }

    /** One writer: every write finds the writer idle, so it commits alone whatever the bound. */
    @Benchmark
    @Threads(1)
    public ResultResponse writers1(KeyDraw draw) {
        return modify(draw);
    }

    @Benchmark
    @Threads(8)
    public ResultResponse writers8(KeyDraw draw) {
        return modify(draw);
    }

    @Benchmark
    @Threads(64)
    public ResultResponse writers64(KeyDraw draw) {
        return modify(draw);
    }

    /** Replaces a random person's description and waits until it is durable. */
    private ResultResponse modify(KeyDraw draw) {
        long id = ids[draw.next(ids.length)];
        Waiting op = new Waiting();
        Directory directory = open.directory();
        writes.submit(op, txn -> {
            StoredEntry before = directory.load(txn, id);
            Entry entry = directory.schemaNormalizer().toEntry(before);
            entry.removeAttributes("description");
            try {
                entry.add("description", "changed at " + System.nanoTime());
            } catch (LdapException e) {
                throw new IllegalStateException(e);
            }
            directory.replace(txn, before, entry);
            ResultResponse response = op.request().getResultResponse();
            response.getLdapResult().setResultCode(ResultCodeEnum.SUCCESS);
            return response;
        });
        ResultResponse response = op.await();
        if (response.getLdapResult().getResultCode() != ResultCodeEnum.SUCCESS) {
            throw new IllegalStateException(
                    "a modify failed: " + response.getLdapResult().getDiagnosticMessage());
        }
        return response;
    }

    /** A modify as the protocol layer hands it to a handler; the benchmark thread waits for its answer. */
    private static final class Waiting implements Operation {
        private final ModifyRequest request = new ModifyRequestImpl();
        private final CompletableFuture<ResultResponse> answer = new CompletableFuture<>();

        ResultResponse await() {
            try {
                return answer.get(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            } catch (ExecutionException | TimeoutException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public ModifyRequest request() {
            return request;
        }

        @Override
        public Session session() {
            return null;
        }

        @Override
        public EventExecutor executor() {
            return null;
        }

        @Override
        public boolean send(Response response) {
            throw new UnsupportedOperationException("a modify sends only its result");
        }

        @Override
        public boolean isWritable() {
            return true;
        }

        @Override
        public void onWritable(Runnable resume) {
            resume.run();
        }

        @Override
        public boolean isAbandoned() {
            return false;
        }

        @Override
        public void complete(ResultResponse response) {
            answer.complete(response);
        }

        @Override
        public int entriesSent() {
            return 0;
        }

        @Override
        public long startNanos() {
            return 0;
        }
    }
}
