package dev.larch.server;

import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import dev.larch.config.IndexKind;
import dev.larch.config.LarchConfig;
import dev.larch.server.directory.ChangeStamps;
import dev.larch.server.directory.Directory;
import dev.larch.server.directory.SchemaChecker;
import dev.larch.server.directory.SchemaNormalizer;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.store.BulkLoad;
import dev.larch.server.store.DnKeys;
import dev.larch.server.store.IdCursor;
import dev.larch.server.store.IndexRef;
import dev.larch.server.store.LmdbStore;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.store.StoreOptions;
import dev.larch.server.store.WriteTxn;
import org.apache.directory.api.ldap.model.schema.AttributeType;
import org.apache.directory.api.ldap.model.schema.SchemaManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The directory as stored on disk, opened from a configuration: the store with its indexes (built
 * first if the config added any), the tree and the schema checker. Shared by serve, import and
 * export; closing it closes the store.
 */
public final class StoredDirectory implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StoredDirectory.class);

    private final LmdbStore store;
    private final Directory directory;
    private final SchemaChecker checker;

    private StoredDirectory(LmdbStore store, Directory directory, SchemaChecker checker) {
        this.store = store;
        this.directory = directory;
        this.checker = checker;
    }

    /**
     * @param durableWrites false only for bulk import, which syncs once at the end
     * @throws IllegalArgumentException naming the {@code index.<attribute>} key when the schema
     *     does not know an indexed attribute
     */
    public static StoredDirectory open(LarchConfig config, SchemaManager schema, boolean durableWrites) {
        SchemaNormalizer schemaNormalizer = new SchemaNormalizer(schema);
        Map<String, Set<IndexKind>> byOid = new HashMap<>();
        Set<String> dnValued = new HashSet<>();
        config.indexes().forEach((name, kinds) -> {
            AttributeType type = schema.getAttributeType(name);
            if (type == null) {
                throw new IllegalArgumentException(
                        "index." + name + ": the schema has no attribute type '" + name + "'");
            }
            if (DnKeys.reverses(type.getSyntaxOid())) {
                dnValued.add(type.getOid());
            }
            byOid.merge(type.getOid(), kinds, (a, b) -> {
                Set<IndexKind> both = EnumSet.copyOf(a);
                both.addAll(b);
                return both;
            });
        });
        StoreOptions options = new StoreOptions(
                config.storage().mapSizeBytes(),
                config.storage().maxReaders(),
                durableWrites && config.storage().durableWrites());
        LmdbStore store = LmdbStore.open(config.storage().dataDir(), options, byOid, dnValued);
        Directory directory = new Directory(
                store,
                schemaNormalizer,
                schemaNormalizer.dn(config.suffix()),
                ChangeStamps.forStore(store, schema, config.replication()));
        long emptied = BulkLoad.emptyIfRefreshInterrupted(store);
        if (emptied >= 0) {
            LOG.warn(
                    "a replica's first refresh stopped midway while loading the store in bulk: its {} entries are"
                            + " removed, and the refresh starts over",
                    emptied);
        }
        buildMissingIndexes(store, directory);
        return new StoredDirectory(store, directory, new SchemaChecker(schema));
    }

    /**
     * Opens the directory in {@code config}'s data directory for reading only (export, backup,
     * verify): nothing is written, no index built or dropped, whatever indexes the config names; a
     * running server may use the store at the same time.
     *
     * @param noLock true for a copy no other process uses (a backup being checked)
     * @throws dev.larch.server.store.StoreException when there is no store there or it is of another format
     */
    public static StoredDirectory openReadOnly(LarchConfig config, SchemaManager schema, boolean noLock) {
        SchemaNormalizer schemaNormalizer = new SchemaNormalizer(schema);
        StoreOptions options = new StoreOptions(
                config.storage().mapSizeBytes(), config.storage().maxReaders(), false);
        LmdbStore store = LmdbStore.openReadOnly(config.storage().dataDir(), options, noLock);
        try {
            Directory directory = new Directory(
                    store,
                    schemaNormalizer,
                    schemaNormalizer.dn(config.suffix()),
                    ChangeStamps.forStore(store, schema, config.replication()));
            return new StoredDirectory(store, directory, new SchemaChecker(schema));
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    /** An index added to the config covers no existing entry yet: fill it before serving. */
    private static void buildMissingIndexes(LmdbStore store, Directory directory) {
        for (IndexRef index : store.indexes().unbuilt()) {
            long n = 0;
            try (WriteTxn txn = store.write()) {
                Progress progress = Progress.onStandardError(
                        "building the " + index.kind() + " index on " + index.attributeOid() + ": entries",
                        txn.entryCount());
                try (IdCursor ids = txn.allEntries()) {
                    for (long id = ids.next(); id != ReadTxn.NOT_FOUND; id = ids.next()) {
                        StoredEntry entry = directory.load(txn, id);
                        directory.indexes().addTo(txn, entry, index);
                        n++;
                        progress.step();
                    }
                }
                progress.finish();
                store.indexes().markBuilt(txn, index);
                txn.commit();
            }
            if (n > 0) {
                LOG.info("built {} index on {} over {} entries", index.kind(), index.attributeOid(), n);
            }
        }
    }

    public LmdbStore store() {
        return store;
    }

    public Directory directory() {
        return directory;
    }

    public SchemaChecker checker() {
        return checker;
    }

    @Override
    public void close() {
        store.close();
    }
}
