package dev.larch.server.ldif;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Consumer;

import dev.larch.config.LarchConfig;
import dev.larch.server.StoredDirectory;
import dev.larch.server.auth.PasswordAttributes;
import dev.larch.server.auth.PasswordSchemes;
import dev.larch.server.bulk.BulkSession;
import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.group.MemberOfMaintainer;
import dev.larch.server.search.FilterCompiler;
import dev.larch.server.search.GroupGraph;
import dev.larch.server.search.SearchPlanner;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.store.WriteTxn;
import dev.larch.server.write.NewEntries;
import org.apache.directory.api.ldap.model.entry.Attribute;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.entry.Value;
import org.apache.directory.api.ldap.model.ldif.LdifEntry;
import org.apache.directory.api.ldap.model.name.Dn;
import org.apache.directory.api.ldap.model.schema.AttributeType;
import org.apache.directory.api.ldap.model.schema.SchemaManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bulk-loads LDIF offline: entries are validated exactly as an add would validate them, written
 * in large transactions (one per batch, not synced), and the store is synced once at the end.
 *
 * <p>Two stages run in parallel: a reader thread parses and schema-checks entries, and the
 * calling thread writes them in file order.
 *
 * <p>Into a store that holds no entry (a new data directory, or one holding only the suffix a
 * server created, which the LDIF's first entry then replaces) the writer takes the bulk path
 * ({@link BulkSession}): entries are appended in ID order while their index records are sorted in
 * bounded runs, and each index is filled by appending once every entry is in. A failure there
 * leaves the store empty. Into any other store each entry is written with its index records, and
 * the batches committed before a failure stay imported.
 *
 * <p>memberOf values in the LDIF are dropped: once every entry and index is in, one pass computes
 * them from the groups ({@link MemberOfMaintainer}), rewriting only the entries some group names,
 * found through the member indexes, in transactions of one batch each.
 */
public final class LdifImporter {
    private static final Logger LOG = LoggerFactory.getLogger(LdifImporter.class);
    /** Threads parsing and checking records: one per core, the writer and the splitter beside them. */
    private final int parseThreads = Runtime.getRuntime().availableProcessors();

    private final StoredDirectory open;
    private final NewEntries newEntries;
    private final int batchEntries;
    private final long sortMemoryBytes;
    private final MemberOfMaintainer memberOf;
    private final AttributeType memberOfType;
    private UrlValues urlValues = UrlValues.REFUSED;

    /** {@link #LdifImporter(StoredDirectory, int, int)} with no index entry limit. */
    public LdifImporter(StoredDirectory open, int batchEntries) {
        this(open, batchEntries, 0);
    }

    /** {@link #LdifImporter(StoredDirectory, int, int, long)} with the default sort memory. */
    public LdifImporter(StoredDirectory open, int batchEntries, int indexEntryLimit) {
        this(
                open,
                batchEntries,
                indexEntryLimit,
                LarchConfig.defaults().storage().importSortMemoryBytes());
    }

    /**
     * @param indexEntryLimit the server's {@code limits.index-entry-limit}, so that the memberOf
     *     pass follows the member indexes as the server's own upkeep does
     * @param sortMemoryBytes the most index records a bulk load holds in memory before spilling
     *     them to disk ({@code storage.import-sort-memory}), lowered to a third of the heap when
     *     that is less; 0 for the ordinary path even into an empty store
     */
    public LdifImporter(StoredDirectory open, int batchEntries, int indexEntryLimit, long sortMemoryBytes) {
        this.open = open;
        this.newEntries = new NewEntries(open.directory(), open.checker());
        this.batchEntries = Math.max(1, batchEntries);
        this.sortMemoryBytes =
                Math.min(Math.max(0, sortMemoryBytes), Runtime.getRuntime().maxMemory() / 3);
        SchemaManager schema = open.directory().schemaNormalizer().schema();
        this.memberOf = new MemberOfMaintainer(
                open.directory(),
                new GroupGraph(
                        open.directory(),
                        new FilterCompiler(schema),
                        new SearchPlanner(open.store(), indexEntryLimit)));
        this.memberOfType = schema.getAttributeType(Directory.MEMBER_OF_OID);
    }

    /** Reads values given by URL as {@code urlValues} allows; by default they are refused. */
    public LdifImporter urlValues(UrlValues urlValues) {
        this.urlValues = urlValues;
        return this;
    }

    /**
     * What an import did.
     *
     * @param withMemberOf entries given memberOf values by the pass after the entries
     */
    public record Result(long entries, long withMemberOf, Duration elapsed) {
        public double entriesPerSecond() {
            return entries / Math.max(1e-9, elapsed.toNanos() / 1e9);
        }
    }

    /**
     * Imports every entry of {@code ldif}; parents must come before their children.
     *
     * @param progress called after each committed batch with the running total
     * @throws ImportException naming the entry (and its position) that could not be imported. On
     *     the bulk path (an empty store) the store is then left empty; on the ordinary path the
     *     batches committed before it stay imported
     */
    public Result importFile(Path ldif, Consumer<Long> progress) throws IOException {
        long start = System.nanoTime();
        Written written;
        try (BufferedReader in = Files.newBufferedReader(ldif, StandardCharsets.UTF_8);
                ChunkedReader reader = new ChunkedReader(in, parseThreads, this::prepare, urlValues)) {
            written = writeAll(reader, progress);
        }
        open.store().sync();
        if (written.cleartext() > 0) {
            LOG.warn(
                    "{} imported entries carry a userPassword without a {SCHEME} prefix, stored as given;"
                            + " binds refuse them unless security.allow-cleartext-passwords is on: set them"
                            + " again with Password Modify (ldappasswd), or hash them before importing",
                    written.cleartext());
        }
        return new Result(written.entries(), written.withMemberOf(), Duration.ofNanos(System.nanoTime() - start));
    }

    /** What the entry stage wrote, and the memberOf pass after it. */
    private record Written(long entries, long cleartext, long withMemberOf) {
        Written withMemberOf(long n) {
            return new Written(entries, cleartext, n);
        }
    }

    /**
     * Writes the reader's entries in file order, then computes memberOf. Into a store that holds no entry (or only a suffix
     * a server created, which the LDIF's first entry replaces) this is the bulk path ({@link
     * BulkSession}): entries appended, indexes filled from sorted runs afterwards, and on failure
     * the store emptied again. Into any other store, the ordinary path: each entry with its index
     * records, batches committed before a failure staying imported.
     */
    private Written writeAll(ChunkedReader reader, Consumer<Long> progress) throws IOException {
        ImportItem first = take(reader);
        failOn(first);
        long serverSuffix = suffixAlone();
        boolean replacing = serverSuffix != ReadTxn.NOT_FOUND && !first.isEnd() && isSuffix(first);
        if (sortMemoryBytes > 0 && (replacing || serverSuffix == ReadTxn.NOT_FOUND)) {
            if (replacing) {
                deleteServerSuffix(serverSuffix);
            }
            BulkSession bulk = BulkSession.start(open.store(), sortMemoryBytes);
            if (bulk != null) {
                try (bulk) {
                    try {
                        Written written = writeEntries(first, reader, progress, bulk, false);
                        LOG.info(
                                "{} entries in; filling {} indexes from their sorted records",
                                written.entries(),
                                open.store().indexes().refs().size());
                        long start = System.nanoTime();
                        long records = bulk.finish();
                        LOG.info(
                                "filled {} indexes with {} records in {} ms ({} spills of index records to disk)",
                                open.store().indexes().refs().size(),
                                records,
                                (System.nanoTime() - start) / 1_000_000,
                                bulk.spills());
                        return written.withMemberOf(computeMemberOf());
                    } catch (RuntimeException | IOException | Error e) {
                        abandon(bulk, e);
                        throw e;
                    }
                }
            }
            if (replacing) {
                // The suffix is gone and the store held something else after all: insert the LDIF's.
                return writeEntries(first, reader, progress, null, false).withMemberOf(computeMemberOf());
            }
        }
        return writeEntries(first, reader, progress, null, replacing).withMemberOf(computeMemberOf());
    }

    /** Empties the store after a failed bulk load, keeping {@code failure} as the reason reported. */
    private static void abandon(BulkSession bulk, Throwable failure) {
        try {
            bulk.abandon();
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
        }
        if (failure instanceof ImportException) {
            LOG.warn("import stopped: the store is left empty, as it was before the import");
        }
    }

    /**
     * Writes {@code first} and every item after it, in transactions of {@link #batchEntries}.
     *
     * @param bulk the bulk load the transactions join, or null for the ordinary path
     * @param replaceSuffix whether {@code first} replaces the server-created suffix (ordinary path)
     */
    private Written writeEntries(
            ImportItem first, ChunkedReader reader, Consumer<Long> progress, BulkSession bulk, boolean replaceSuffix) {
        long count = 0;
        long cleartext = 0;
        WriteTxn txn = begin(bulk);
        try {
            int inBatch = 0;
            for (ImportItem item = first; !item.isEnd(); item = take(reader)) {
                failOn(item);
                if (count == 0 && replaceSuffix) {
                    replaceSuffix(txn, suffixAlone(txn), item);
                } else {
                    insert(txn, item);
                }
                count++;
                if (hasCleartextPassword(item.entry())) {
                    cleartext++;
                }
                if (++inBatch == batchEntries) {
                    txn.commit();
                    txn.close();
                    txn = begin(bulk);
                    inBatch = 0;
                    progress.accept(count);
                }
            }
            txn.commit();
        } finally {
            txn.close();
        }
        return new Written(count, cleartext, 0);
    }

    private WriteTxn begin(BulkSession bulk) {
        WriteTxn txn = open.store().write();
        if (bulk != null) {
            bulk.enlist(txn);
        }
        return txn;
    }

    private static void failOn(ImportItem item) {
        if (item.failure() != null) {
            throw new ImportException(item.failure());
        }
    }

    /** Removes the suffix a server created, which the LDIF's first entry replaces, before a bulk load. */
    private void deleteServerSuffix(long id) {
        try (WriteTxn txn = open.store().write()) {
            open.directory().delete(txn, open.directory().load(txn, id));
            txn.commit();
        }
        LOG.info("replacing the store's only entry, the suffix, with the LDIF's");
    }

    /** The pass after the entries: memberOf of every entry some group names, one batch per transaction. */
    private long computeMemberOf() {
        return memberOf.recomputeNamed(open.store(), batchEntries);
    }

    /**
     * The ID of the suffix entry when it is the store's only entry (a server started on the data
     * directory created it, {@code storage.create-suffix}), else {@link ReadTxn#NOT_FOUND}.
     */
    private long suffixAlone() {
        try (ReadTxn txn = open.store().read()) {
            return suffixAlone(txn);
        }
    }

    private long suffixAlone(ReadTxn txn) {
        return txn.entryCount() == 1
                ? open.directory().resolve(txn, open.directory().suffix())
                : ReadTxn.NOT_FOUND;
    }

    private boolean isSuffix(ImportItem item) {
        return item.entry().getDn().equals(open.directory().suffix());
    }

    /**
     * An LDIF that starts with the suffix entry, loaded into a store that holds only that entry: the
     * LDIF's version takes its place, so that serving a new data directory once (which creates the
     * suffix) and then importing into it works as importing into an empty one does.
     */
    private void replaceSuffix(WriteTxn txn, long id, ImportItem item) {
        StoredEntry before = open.directory().load(txn, id);
        open.directory().replace(txn, before, item.entry());
        LOG.info("replaced the store's only entry, the suffix {}, with the LDIF's", item.dn());
    }

    /**
     * How many records an LDIF file holds, counted by their {@code dn:} lines in one quick pass
     * before the import (for its progress: a fraction of the import's time).
     */
    public static long countEntries(Path ldif) throws IOException {
        long n = 0;
        // Latin-1 maps every byte to a character: the count never fails on bytes the import itself
        // will report as invalid UTF-8, and "dn:" is ASCII either way.
        try (BufferedReader in = Files.newBufferedReader(ldif, StandardCharsets.ISO_8859_1)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.length() >= 3 && line.regionMatches(true, 0, "dn:", 0, 3)) {
                    n++;
                }
            }
        }
        return n;
    }

    /**
     * Import keeps every value as the LDIF has it, as slapadd does: an export imports back byte for
     * byte, and hashing a million passwords at tens of milliseconds each would take hours. Cleartext
     * is counted so the operator hears of it.
     */
    private static boolean hasCleartextPassword(Entry entry) {
        Attribute passwords = entry.get(PasswordAttributes.USER_PASSWORD_OID);
        if (passwords == null) {
            return false;
        }
        for (Value v : passwords) {
            if (!PasswordSchemes.isHashed(v.getBytes())) {
                return true;
            }
        }
        return false;
    }

    /** The reader stage's work on one record (on a parse thread): convert and check it. */
    private ImportItem prepare(LdifEntry ldifEntry, long position) {
        String dn = ldifEntry.getDn().getName();
        if (!ldifEntry.isEntry()) {
            return failure(position, dn, "only plain entries can be imported, not change records");
        }
        try {
            Dn parsed = open.directory().schemaNormalizer().dn(dn);
            // Stamped as the administrator where the LDIF names no creator, as slapadd stamps its rootdn.
            Entry entry = newEntries.prepare(
                    parsed, ldifEntry.getEntry(), true, open.directory().administrator());
            // Computed from the groups once every entry is in, whatever the LDIF said.
            entry.removeAttributes(memberOfType);
            return new ImportItem(position, dn, entry, null);
        } catch (ResultCodeException e) {
            return failure(position, dn, e.getMessage() + " [" + e.code().getMessage() + "]");
        }
    }

    private static ImportItem failure(long position, String dn, String reason) {
        return new ImportItem(position, dn, null, "entry " + position + " (" + dn + "): " + reason);
    }

    private void insert(WriteTxn txn, ImportItem item) {
        try {
            newEntries.insert(txn, item.entry());
        } catch (ResultCodeException e) {
            throw new ImportException("entry " + item.position() + " (" + item.dn() + "): " + e.getMessage() + " ["
                    + e.code().getMessage() + "]");
        }
    }

    private static ImportItem take(ChunkedReader reader) {
        try {
            return reader.next();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ImportException("import interrupted");
        }
    }

    /** An import that stopped; the message names the entry and the reason. */
    public static final class ImportException extends RuntimeException {
        public ImportException(String message) {
            super(message);
        }
    }
}
