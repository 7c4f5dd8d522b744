package dev.larch.server.replica;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Executor;

import dev.larch.config.IndexKind;
import dev.larch.schema.LarchSchema;
import dev.larch.server.commit.WriteQueue;
import dev.larch.server.csn.Csn;
import dev.larch.server.csn.CsnClock;
import dev.larch.server.csn.CsnVector;
import dev.larch.server.directory.ChangeStamps;
import dev.larch.server.directory.Directory;
import dev.larch.server.directory.SchemaChecker;
import dev.larch.server.directory.SchemaNormalizer;
import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.entry.StoredStamps;
import dev.larch.server.group.MemberOfMaintainer;
import dev.larch.server.search.FilterCompiler;
import dev.larch.server.search.GroupGraph;
import dev.larch.server.search.SearchPlanner;
import dev.larch.server.store.ChangeLogCursor;
import dev.larch.server.store.IdCursor;
import dev.larch.server.store.LmdbStore;
import dev.larch.server.store.LoggedChange;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.store.StoreOptions;
import dev.larch.server.store.WriteTxn;
import dev.larch.server.sync.SyncCookie;
import dev.larch.server.testing.TestTree;
import dev.larch.server.write.NewEntries;
import org.apache.directory.api.ldap.model.entry.DefaultEntry;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.ldif.LdifEntry;
import org.apache.directory.api.ldap.model.ldif.LdifReader;
import org.apache.directory.api.ldap.model.name.Dn;
import org.apache.directory.api.ldap.model.schema.SchemaManager;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * One server for replication tests: a real store with its own server ID, its writer and a {@link
 * StoreReplica} over it; it makes local changes as a client's write would and gives each as the
 * {@link ReplicaChange} its provider side would send.
 */
final class ReplicaMember implements AutoCloseable {
    static final int RID = 1;
    static final String SUFFIX = "dc=example,dc=com";
    /** Small enough that a test's refresh of a few hundred entries spills index records to disk. */
    static final long BULK_SORT_MEMORY = 64 * 1024;

    private static final SchemaManager SCHEMA = LarchSchema.standard();

    final int sid;
    final SchemaNormalizer schema = new SchemaNormalizer(SCHEMA);
    final LmdbStore store;
    final Directory directory;
    final NewEntries newEntries;
    final WriteQueue writes;
    final StoreReplica replica;

    ReplicaMember(Path dir, int sid) {
        this(dir, sid, Clock.systemUTC(), 60);
    }

    ReplicaMember(Path dir, int sid, Clock clock, long maxSkewSeconds) {
        this(dir, sid, clock, maxSkewSeconds, Runnable::run);
    }

    /** A member whose replica prepares each batch's entries on {@code preparing}. */
    ReplicaMember(Path dir, int sid, Executor preparing) {
        this(dir, sid, Clock.systemUTC(), 60, preparing);
    }

    private ReplicaMember(Path dir, int sid, Clock clock, long maxSkewSeconds, Executor preparing) {
        this.sid = sid;
        Map<String, Set<IndexKind>> indexes = new HashMap<>(TestTree.DEFAULT_INDEXES);
        indexes.put("1.3.6.1.1.16.4", Set.of(IndexKind.EQUALITY)); // entryUUID
        indexes.put(Directory.MEMBER_OF_OID, Set.of(IndexKind.EQUALITY));
        indexes.put("2.5.4.31", Set.of(IndexKind.EQUALITY)); // member, which memberOf is computed from
        store = LmdbStore.open(dir, new StoreOptions(1L << 30, 126, false), indexes);
        directory =
                new Directory(store, schema, schema.dn(SUFFIX), new ChangeStamps(SCHEMA, CsnClock.system(sid), 0, 0));
        SchemaChecker checker = new SchemaChecker(SCHEMA);
        newEntries = new NewEntries(directory, checker);
        writes = new WriteQueue(store, 16);
        replica = new StoreReplica(
                RID,
                directory,
                checker,
                writes,
                maxSkewSeconds,
                clock,
                new ReplicationMetrics(),
                preparing,
                new BulkRefresh(directory, writes, BULK_SORT_MEMORY));
    }

    /** Adds the entries of an LDIF text as a client would; returns what a provider sends of them. */
    List<ReplicaChange> add(String ldif) {
        List<ReplicaChange> sent = new ArrayList<>();
        try (LdifReader reader = new LdifReader(new StringReader(ldif));
                WriteTxn txn = store.write()) {
            for (LdifEntry e : reader) {
                Dn dn = schema.dn(e.getDn().getName());
                StoredEntry added = newEntries.insert(txn, newEntries.prepare(dn, e.getEntry(), false, Dn.EMPTY_DN));
                sent.add(upsertOf(added));
            }
            txn.commit();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return sent;
    }

    /** Replaces the values of {@code attribute} of {@code dn} as a client's modify would. */
    ReplicaChange modify(String dn, String attribute, String... values) {
        try (WriteTxn txn = store.write()) {
            StoredEntry before = load(txn, dn);
            Entry after = schema.toEntry(before);
            after.removeAttributes(attribute);
            if (values.length > 0) {
                after.add(attribute, values);
            }
            StoredEntry stored = directory.replace(txn, before, after);
            txn.commit();
            return upsertOf(stored);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Renames {@code dn} to {@code newRdn} under the same parent, keeping the old RDN value. */
    ReplicaChange rename(String dn, String newRdn) {
        try (WriteTxn txn = store.write()) {
            StoredEntry before = load(txn, dn);
            Dn newDn = schema.dn(newRdn + "," + schema.dn(dn).getParent().getName());
            Entry after = schema.toEntry(before);
            after.setDn(newDn);
            String[] ava = newRdn.split("=", 2);
            after.add(ava[0], ava[1]);
            StoredEntry moved = directory.move(txn, before, before.parentId(), after);
            txn.commit();
            return upsertOf(moved);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Deletes the leaf {@code dn} as a client would; returns the Sync State delete a provider sends. */
    ReplicaChange delete(String dn) {
        try (WriteTxn txn = store.write()) {
            StoredEntry entry = load(txn, dn);
            directory.delete(txn, entry);
            txn.commit();
        }
        LoggedChange last = lastLogged();
        return new ReplicaChange.Deleted(last.uuid(), dn, cookieOf(Csn.fromBytes(last.csn())));
    }

    /** The Sync State deletes a provider would send for this member's logged deletes after {@code after} (null: all). */
    List<ReplicaChange> deletesSince(byte[] after) {
        List<ReplicaChange> deletes = new ArrayList<>();
        try (ReadTxn txn = store.read();
                ChangeLogCursor log = txn.changesAfter(after)) {
            for (LoggedChange c = log.next(); c != null; c = log.next()) {
                if (c.kind() == LoggedChange.Kind.DELETE) {
                    deletes.add(new ReplicaChange.Deleted(c.uuid(), "", cookieOf(Csn.fromBytes(c.csn()))));
                }
            }
        }
        return deletes;
    }

    LoggedChange lastLogged() {
        LoggedChange last = null;
        try (ReadTxn txn = store.read();
                ChangeLogCursor log = txn.changesAfter(null)) {
            for (LoggedChange c = log.next(); c != null; c = log.next()) {
                last = c;
            }
        }
        return last;
    }

    /** A full refresh as this member's provider side sends it: parents first, then a present phase's end. */
    List<ReplicaChange> fullRefresh() {
        List<ReplicaChange> sent = new ArrayList<>();
        sent.add(new ReplicaChange.RefreshStarted(null));
        try (ReadTxn txn = store.read()) {
            long root = directory.resolve(txn, schema.dn(SUFFIX));
            Deque<Long> pending = new ArrayDeque<>();
            pending.push(root);
            while (!pending.isEmpty()) {
                long id = pending.pop();
                sent.add(upsertOf(directory.load(txn, id)));
                try (IdCursor children = txn.children(id)) {
                    for (long c = children.next(); c != ReadTxn.NOT_FOUND; c = children.next()) {
                        pending.push(c);
                    }
                }
            }
        }
        sent.add(new ReplicaChange.PhaseEnd(true, true, new SyncCookie(RID, sid, context())));
        return sent;
    }

    /** The entry as its provider sends it: its DN and every attribute but memberOf, stamps included. */
    ReplicaChange upsertOf(StoredEntry stored) {
        Entry sent = new DefaultEntry();
        try {
            sent.setDn(stored.dn());
            for (StoredAttribute a : stored.attributes()) {
                if (a.oid().equals(Directory.MEMBER_OF_OID)) {
                    continue;
                }
                for (byte[] value : a.values()) {
                    sent.add(a.userId(), new String(value, UTF_8));
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        byte[] uuid = StoredStamps.uuid(stored);
        return new ReplicaChange.Upsert(uuid, sent, cookieOf(StoredStamps.csn(stored)));
    }

    SyncCookie cookieOf(Csn csn) {
        return new SyncCookie(RID, sid, CsnVector.of(csn));
    }

    CsnVector context() {
        List<Csn> csns = new ArrayList<>();
        try (ReadTxn txn = store.read()) {
            for (byte[] csn : txn.contextCsns()) {
                csns.add(Csn.fromBytes(csn));
            }
        }
        return CsnVector.of(csns);
    }

    /** Keeps memberOf from now on, as a server does. */
    ReplicaMember keepingMemberOf() {
        directory.maintainMemberOf(new MemberOfMaintainer(
                directory, new GroupGraph(directory, new FilterCompiler(SCHEMA), new SearchPlanner(store, 1000))));
        return this;
    }

    /**
     * The IDs the equality index of {@code attributeOid} holds under {@code value}, normalized but for
     * the spaces the normalizer puts around it.
     */
    List<Long> indexed(String attributeOid, String value) {
        List<Long> ids = new ArrayList<>();
        try (ReadTxn txn = store.read()) {
            txn.forEachIndexRecord(attributeOid, IndexKind.EQUALITY, (key, id) -> {
                if (new String(key, StandardCharsets.UTF_8).strip().equals(value)) {
                    ids.add(id);
                }
            });
        }
        return ids;
    }

    /** Applies {@code changes} as one batch and waits for its commit. */
    void apply(List<ReplicaChange> changes) {
        replica.apply(changes).join();
    }

    void apply(ReplicaChange... changes) {
        apply(List.of(changes));
    }

    StoredEntry load(ReadTxn txn, String dn) {
        return directory.load(txn, directory.require(txn, schema.dn(dn)));
    }

    /** The entry named {@code dn}, or null. */
    StoredEntry find(String dn) {
        try (ReadTxn txn = store.read()) {
            long id = directory.resolve(txn, schema.dn(dn));
            return id == ReadTxn.NOT_FOUND ? null : directory.load(txn, id);
        }
    }

    long changeLogSize() {
        try (ReadTxn txn = store.read()) {
            return txn.changeLogSize();
        }
    }

    long entryCount() {
        try (ReadTxn txn = store.read()) {
            return txn.entryCount();
        }
    }

    /**
     * Every entry by normalized DN, each as its sorted attribute values (memberOf left out, computed by
     * each server): what two converged members hold alike, entryUUID and entryCSN included.
     */
    Map<String, Set<String>> contents() {
        Map<String, Set<String>> all = new TreeMap<>();
        try (ReadTxn txn = store.read();
                IdCursor ids = txn.allEntries()) {
            for (long id = ids.next(); id != ReadTxn.NOT_FOUND; id = ids.next()) {
                StoredEntry e = directory.load(txn, id);
                Set<String> values = new TreeSet<>();
                for (StoredAttribute a : e.attributes()) {
                    if (a.oid().equals(Directory.MEMBER_OF_OID)) {
                        continue;
                    }
                    for (byte[] v : a.values()) {
                        values.add(a.oid() + ": " + new String(v, UTF_8));
                    }
                }
                all.put(schema.dn(e.dn()).getNormName(), values);
            }
        }
        return all;
    }

    @Override
    public void close() {
        writes.close();
        store.close();
    }
}
