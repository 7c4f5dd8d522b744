package dev.larch.server.ldif;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Consumer;

import dev.larch.server.OpenDirectory;
import dev.larch.server.error.LdapError;
import dev.larch.server.ops.NewEntries;
import dev.larch.server.store.WriteTxn;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.ldif.LdifEntry;
import org.apache.directory.api.ldap.model.name.Dn;

/**
 * Bulk-loads LDIF offline: entries are validated exactly as an add would validate them, written
 * in large transactions (one per batch, not synced) with their indexes in the same pass, and the
 * store is synced once at the end.
 */
public final class LdifImporter {
    private final OpenDirectory open;
    private final NewEntries newEntries;
    private final int batchEntries;

    public LdifImporter(OpenDirectory open, int batchEntries) {
        this.open = open;
        this.newEntries = new NewEntries(open.directory(), open.checker());
        this.batchEntries = Math.max(1, batchEntries);
    }

    /** What an import did. */
    public record Result(long entries, Duration elapsed) {
        public double entriesPerSecond() {
            return entries / Math.max(1e-9, elapsed.toNanos() / 1e9);
        }
    }

    /**
     * Imports every entry of {@code ldif}; parents must come before their children.
     *
     * @param progress called after each committed batch with the running total
     * @throws ImportException naming the entry (and its position) that could not be imported;
     *     batches committed before it stay imported
     */
    public Result importFile(Path ldif, Consumer<Long> progress) throws IOException {
        long start = System.nanoTime();
        long count = 0;
        try (BufferedReader in = Files.newBufferedReader(ldif, StandardCharsets.UTF_8);
                LdifRecords records = new LdifRecords(in)) {
            WriteTxn txn = open.store().write();
            try {
                int inBatch = 0;
                for (LdifEntry ldifEntry = records.read(); ldifEntry != null; ldifEntry = records.read()) {
                    if (!ldifEntry.isEntry()) {
                        throw new ImportException("entry " + records.position() + " (" + ldifEntry.getDn()
                                + "): only plain entries can be imported, not change records");
                    }
                    insert(txn, ldifEntry, records.position());
                    count++;
                    if (++inBatch == batchEntries) {
                        txn.commit();
                        txn.close();
                        txn = open.store().write();
                        inBatch = 0;
                        progress.accept(count);
                    }
                }
                txn.commit();
            } finally {
                txn.close();
            }
        }
        open.store().sync();
        return new Result(count, Duration.ofNanos(System.nanoTime() - start));
    }

    private void insert(WriteTxn txn, LdifEntry ldifEntry, long position) {
        try {
            Dn dn = open.directory().schemaEntries().dn(ldifEntry.getDn().getName());
            Entry entry = newEntries.prepare(dn, ldifEntry.getEntry(), true, Dn.EMPTY_DN);
            newEntries.insert(txn, entry);
        } catch (LdapError e) {
            throw new ImportException("entry " + position + " (" + ldifEntry.getDn().getName() + "): "
                    + e.getMessage() + " [" + e.code().getMessage() + "]");
        }
    }

    /** An import that stopped; the message names the entry and the reason. */
    public static final class ImportException extends RuntimeException {
        public ImportException(String message) {
            super(message);
        }
    }
}
