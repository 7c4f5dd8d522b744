package dev.larch.jmh.data;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.stream.Stream;

import dev.larch.config.LarchConfig;
import dev.larch.schema.LarchSchema;
import dev.larch.server.StoredDirectory;
import dev.larch.server.store.WriteTxn;
import dev.larch.server.write.NewEntries;
import org.apache.directory.api.ldap.model.entry.DefaultEntry;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.name.Dn;
import org.apache.directory.api.ldap.model.schema.SchemaManager;

/**
 * A real store in a fresh temporary directory, opened the way the server opens it (default
 * configuration and indexes, standard schema) but without per-commit syncs, and filled with
 * {@link People}: the suffix, {@code ou=people}, its units and {@code entries} people.
 *
 * <p>Entries go through the same validation and insert path as an import, in transactions of
 * {@link #BATCH} entries. {@link #close()} closes the store and deletes the directory.
 *
 * <p>JMH runs every benchmark in its own fork, and each store benchmark needs the same store. When
 * the system property {@value #STORE_CACHE_PROPERTY} names a folder (JmhMain makes one per run and
 * deletes it afterwards), the first fork that builds a store of a size leaves a copy of its LMDB
 * file there and later forks of the same run copy that file instead of building again: the same
 * bytes, seconds instead of a minute. The cache never outlives the run, so a changed server or
 * data generator never meets an old store.
 */
public final class GeneratedDirectory implements AutoCloseable {
    /** Entries per write transaction while filling. */
    public static final int BATCH = 10_000;

    /** System property: a folder where the forks of one run share built stores; unset, none is shared. */
    public static final String STORE_CACHE_PROPERTY = "larch.jmh.store-cache";

    private static final String DATA_FILE = "data.mdb";

    private final Path dir;
    private final LarchConfig config;
    private final SchemaManager schema;
    private final StoredDirectory open;
    private boolean copied;

    private GeneratedDirectory(Path dir, LarchConfig config, SchemaManager schema, StoredDirectory open) {
        this.dir = dir;
        this.config = config;
        this.schema = schema;
        this.open = open;
    }

    /** Whether this store is a copy of one an earlier fork of the run built, rather than built here. */
    public boolean copied() {
        return copied;
    }

    /**
     * Creates and fills a directory of {@code entries} people, or copies the one an earlier fork of
     * this run built; prints which and how long it took.
     */
    public static GeneratedDirectory create(int entries) {
        return create(entries, false);
    }

    /**
     * {@link #create(int)}, opened with {@code durableWrites}: true syncs every committed transaction
     * as the server does by default, for benchmarks of the write path (filling is not faster for it:
     * the fill's few large transactions sync once each).
     */
    public static GeneratedDirectory create(int entries, boolean durableWrites) {
        long start = System.nanoTime();
        Path dir;
        try {
            dir = Files.createTempDirectory("larch-jmh-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        LarchConfig config = LarchConfig.defaults().withDataDir(dir);
        SchemaManager schema = LarchSchema.standard();
        Path shared = sharedStore(entries);
        boolean copied = shared != null && Files.isRegularFile(shared.resolve(DATA_FILE));
        if (copied) {
            copy(shared.resolve(DATA_FILE), dir.resolve(DATA_FILE));
        }
        StoredDirectory open = StoredDirectory.open(config, schema, durableWrites);
        GeneratedDirectory generated = new GeneratedDirectory(dir, config, schema, open);
        generated.copied = copied;
        try {
            if (!copied) {
                generated.fill(entries);
                if (shared != null) {
                    generated.share(shared);
                }
            }
        } catch (RuntimeException e) {
            generated.close();
            throw e;
        }
        System.out.printf(
                "%n[larch-jmh] %s %,d people in %s in %.1f s%n",
                copied ? "copied the run's store of" : "generated", entries, dir, (System.nanoTime() - start) / 1e9);
        return generated;
    }

    /** Where this run keeps its store of {@code entries} people, or null when forks share none. */
    private static Path sharedStore(int entries) {
        String cache = System.getProperty(STORE_CACHE_PROPERTY);
        return cache == null || cache.isBlank() ? null : Path.of(cache, "people-" + entries);
    }

    /**
     * Leaves a copy of the freshly filled store for later forks. Every transaction is committed and
     * none is open, so the file holds the whole store; it appears under its final name only when
     * complete (copied beside it, then moved).
     */
    private void share(Path shared) {
        try {
            Files.createDirectories(shared);
            Path partial = Files.createTempFile(shared, "data-", ".partial");
            copy(dir.resolve(DATA_FILE), partial);
            Files.move(partial, shared.resolve(DATA_FILE), StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void copy(Path from, Path to) {
        try {
            Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void fill(int entries) {
        NewEntries newEntries = new NewEntries(open.directory(), open.checker());
        int units = (entries + People.PER_UNIT - 1) / People.PER_UNIT;
        WriteTxn txn = open.store().write();
        try {
            insert(newEntries, txn, suffix());
            insert(newEntries, txn, People.unit(People.PEOPLE, "people"));
            for (int u = 0; u < units; u++) {
                insert(newEntries, txn, People.unit(People.unitDn(u), People.unitName(u)));
            }
            for (int i = 0; i < entries; i++) {
                insert(newEntries, txn, People.person(i));
                if ((i + 1) % BATCH == 0) {
                    txn.commit();
                    txn.close();
                    txn = open.store().write();
                }
            }
            txn.commit();
        } finally {
            txn.close();
        }
    }

    private void insert(NewEntries newEntries, WriteTxn txn, Entry clientEntry) {
        Dn dn = open.directory().schemaNormalizer().dn(clientEntry.getDn().getName());
        newEntries.insert(txn, newEntries.prepare(dn, clientEntry, true, Dn.EMPTY_DN));
    }

    private static Entry suffix() {
        try {
            return new DefaultEntry(
                    People.SUFFIX,
                    "objectClass",
                    "top",
                    "objectClass",
                    "domain",
                    "objectClass",
                    "dcObject",
                    "dc",
                    "example");
        } catch (LdapException e) {
            throw new IllegalStateException(e);
        }
    }

    public StoredDirectory open() {
        return open;
    }

    public LarchConfig config() {
        return config;
    }

    public SchemaManager schema() {
        return schema;
    }

    @Override
    public void close() {
        open.close();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
