package dev.larch.jmh.data;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
 */
public final class GeneratedDirectory implements AutoCloseable {
    /** Entries per write transaction while filling. */
    public static final int BATCH = 10_000;

    private final Path dir;
    private final LarchConfig config;
    private final SchemaManager schema;
    private final StoredDirectory open;

    private GeneratedDirectory(Path dir, LarchConfig config, SchemaManager schema, StoredDirectory open) {
        this.dir = dir;
        this.config = config;
        this.schema = schema;
        this.open = open;
    }

    /** Creates and fills a directory of {@code entries} people; prints how long it took. */
    public static GeneratedDirectory create(int entries) {
        long start = System.nanoTime();
        Path dir;
        try {
            dir = Files.createTempDirectory("larch-jmh-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        LarchConfig config = LarchConfig.defaults().withDataDir(dir);
        SchemaManager schema = LarchSchema.standard();
        StoredDirectory open = StoredDirectory.open(config, schema, false);
        GeneratedDirectory generated = new GeneratedDirectory(dir, config, schema, open);
        try {
            generated.fill(entries);
        } catch (RuntimeException e) {
            generated.close();
            throw e;
        }
        System.out.printf(
                "%n[larch-jmh] generated %,d people in %s in %.1f s%n",
                entries, dir, (System.nanoTime() - start) / 1e9);
        return generated;
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
