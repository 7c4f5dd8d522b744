package dev.larch.server.replica;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import dev.larch.config.Replication;
import dev.larch.config.ReplicationConsumer;
import dev.larch.server.commit.WriteQueue;
import dev.larch.server.directory.Directory;
import dev.larch.server.directory.SchemaChecker;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.ssl.SslContext;

/**
 * The providers this server replicates from ({@code replication.consumer.<rid>.*}): one {@link
 * SyncSession} per provider, each applying what it receives through a {@link StoreReplica} of its
 * replica ID. Sessions run on event loops handed in (the listener's), so a consumer costs no thread
 * of its own; one thread shared by all prepares the entries of the batches they receive (made
 * schema-aware and checked) while the writer stores the batch before.
 *
 * <p>Thread-safe: {@link #statuses()} may be called from any thread.
 */
public final class Replicas implements AutoCloseable {
    private final List<SyncSession> sessions;
    private final ExecutorService preparing;
    /** Null for a server with no provider. */
    private final BulkRefresh bulk;

    private Replicas(List<SyncSession> sessions, ExecutorService preparing, BulkRefresh bulk) {
        this.sessions = sessions;
        this.preparing = preparing;
        this.bulk = bulk;
    }

    /** No provider: a server that only serves. */
    public static Replicas none() {
        return new Replicas(List.of(), null, null);
    }

    /**
     * Starts a session per configured provider; each connects in the background and retries for ever.
     *
     * @param providerTls the client TLS context providers are checked with; null when no provider is
     *     reached over TLS
     * @param metrics where each replica counts what it commits, under its replica ID
     * @param bulkSortMemoryBytes {@code storage.import-sort-memory}: what a first refresh into an
     *     empty store holds of its index records before spilling them to disk ({@link BulkRefresh}); 0
     *     applies it entry by entry
     */
    public static Replicas start(
            Replication replication,
            String suffix,
            Directory directory,
            SchemaChecker checker,
            WriteQueue writes,
            EventLoopGroup loops,
            SslContext providerTls,
            ReplicationMetrics metrics,
            long bulkSortMemoryBytes) {
        if (replication.consumers().isEmpty()) {
            return none();
        }
        ExecutorService preparing = Executors.newSingleThreadExecutor(
                Thread.ofPlatform().name("larch-replica-prepare").daemon().factory());
        BulkRefresh bulk = new BulkRefresh(directory, writes, bulkSortMemoryBytes);
        List<SyncSession> started = new ArrayList<>();
        for (ReplicationConsumer consumer : replication.consumers()) {
            StoreReplica replica = new StoreReplica(
                    consumer.rid(),
                    directory,
                    checker,
                    writes,
                    replication.maxClockSkewSeconds(),
                    Clock.systemUTC(),
                    metrics,
                    preparing,
                    bulk);
            SyncSession session =
                    new SyncSession(consumer, suffix, replication.serverId(), replica, loops, providerTls);
            started.add(session);
            session.start();
        }
        return new Replicas(List.copyOf(started), preparing, bulk);
    }

    /** What each session is doing, in replica ID order. */
    public List<SyncSessionStatus> statuses() {
        List<SyncSessionStatus> all = new ArrayList<>(sessions.size());
        for (SyncSession session : sessions) {
            all.add(session.status());
        }
        return all;
    }

    /** Stops every session; none reconnects after. */
    @Override
    public void close() {
        for (SyncSession session : sessions) {
            session.close();
        }
        if (preparing != null) {
            // The sessions are closed: no batch follows. One being prepared still goes to the writer.
            preparing.shutdown();
        }
        if (bulk != null) {
            bulk.close(); // a load under way stops: the next start empties the store and refreshes again
        }
    }
}
