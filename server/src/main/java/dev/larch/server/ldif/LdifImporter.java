package dev.larch.server.ldif;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.function.Consumer;

import dev.larch.server.StoredDirectory;
import dev.larch.server.auth.PasswordAttributes;
import dev.larch.server.auth.PasswordSchemes;
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
 * in large transactions (one per batch, not synced) with their indexes in the same pass, and the
 * store is synced once at the end.
 *
 * <p>Two stages run in parallel: a reader thread parses and schema-checks entries, and the
 * calling thread writes them in file order. Profiling a 26k-entry load showed the work split
 * about evenly between the two (LDIF parsing and schema conversion versus encoding, index keys
 * and LMDB puts), so the pipeline keeps both cores busy.
 *
 * <p>memberOf values in the LDIF are dropped: once every entry is in, one pass computes them from
 * the groups ({@link MemberOfMaintainer}), rewriting only the entries some group names, found
 * through the member indexes, in transactions of one batch each.
 */
public final class LdifImporter {
    private static final Logger LOG = LoggerFactory.getLogger(LdifImporter.class);
    private static final int QUEUE = 2048;

    private final StoredDirectory open;
    private final NewEntries newEntries;
    private final int batchEntries;
    private final MemberOfMaintainer memberOf;
    private final AttributeType memberOfType;

    /** {@link #LdifImporter(StoredDirectory, int, int)} with no index entry limit. */
    public LdifImporter(StoredDirectory open, int batchEntries) {
        this(open, batchEntries, 0);
    }

    /**
     * @param indexEntryLimit the server's {@code limits.index-entry-limit}, so that the memberOf
     *     pass follows the member indexes as the server's own upkeep does
     */
    public LdifImporter(StoredDirectory open, int batchEntries, int indexEntryLimit) {
        this.open = open;
        this.newEntries = new NewEntries(open.directory(), open.checker());
        this.batchEntries = Math.max(1, batchEntries);
        SchemaManager schema = open.directory().schemaNormalizer().schema();
        this.memberOf = new MemberOfMaintainer(
                open.directory(),
                new GroupGraph(
                        open.directory(),
                        new FilterCompiler(schema),
                        new SearchPlanner(open.store(), indexEntryLimit)));
        this.memberOfType = schema.getAttributeType(Directory.MEMBER_OF_OID);
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

    /** One parsed entry, or the reason parsing stopped, or the end of the file. */
    private record Item(long position, String dn, Entry entry, String failure) {
        static final Item END = new Item(-1, null, null, null);

        /** Whether this is the reader's last item, {@link #END}: no entry and no failure. */
        boolean isEnd() {
            return entry == null && failure == null;
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
        BlockingQueue<Item> queue = new ArrayBlockingQueue<>(QUEUE);
        BufferedReader in = Files.newBufferedReader(ldif, StandardCharsets.UTF_8);
        Thread reader = Thread.ofPlatform().name("larch-import-reader").daemon().start(() -> read(in, queue));
        long count = 0;
        long cleartext = 0;
        try {
            long serverSuffix = suffixAlone();
            WriteTxn txn = open.store().write();
            try {
                int inBatch = 0;
                for (Item item = take(queue); !item.isEnd(); item = take(queue)) {
                    if (item.failure() != null) {
                        throw new ImportException(item.failure());
                    }
                    if (count == 0 && serverSuffix != ReadTxn.NOT_FOUND && isSuffix(item)) {
                        replaceSuffix(txn, serverSuffix, item);
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
                        txn = open.store().write();
                        inBatch = 0;
                        progress.accept(count);
                    }
                }
                txn.commit();
            } finally {
                txn.close();
            }
        } finally {
            reader.interrupt();
            in.close();
        }
        long withMemberOf = computeMemberOf();
        open.store().sync();
        if (cleartext > 0) {
            LOG.warn(
                    "{} imported entries carry a userPassword without a {SCHEME} prefix, stored as given;"
                            + " binds refuse them unless security.allow-cleartext-passwords is on: set them"
                            + " again with Password Modify (ldappasswd), or hash them before importing",
                    cleartext);
        }
        return new Result(count, withMemberOf, Duration.ofNanos(System.nanoTime() - start));
    }

    /** The pass after the entries: memberOf of every entry some group names, one batch per transaction. */
    private long computeMemberOf() {
        List<Long> named;
        try (ReadTxn txn = open.store().read()) {
            named = memberOf.namedByGroups(txn);
        }
        // Groups keep their members and names during the pass: each is loaded once for all batches.
        GroupGraph.Loaded loaded = new GroupGraph.Loaded();
        long rewritten = 0;
        for (int from = 0; from < named.size(); from += batchEntries) {
            try (WriteTxn txn = open.store().write()) {
                rewritten += memberOf.recompute(
                        txn, named.subList(from, Math.min(named.size(), from + batchEntries)), loaded);
                txn.commit();
            }
        }
        return rewritten;
    }

    /**
     * The ID of the suffix entry when it is the store's only entry (a server started on the data
     * directory created it, {@code storage.create-suffix}), else {@link ReadTxn#NOT_FOUND}.
     */
    private long suffixAlone() {
        try (ReadTxn txn = open.store().read()) {
            return txn.entryCount() == 1
                    ? open.directory().resolve(txn, open.directory().suffix())
                    : ReadTxn.NOT_FOUND;
        }
    }

    private boolean isSuffix(Item item) {
        return item.entry().getDn().equals(open.directory().suffix());
    }

    /**
     * An LDIF that starts with the suffix entry, loaded into a store that holds only that entry: the
     * LDIF's version takes its place, so that serving a new data directory once (which creates the
     * suffix) and then importing into it works as importing into an empty one does.
     */
    private void replaceSuffix(WriteTxn txn, long id, Item item) {
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

    /** The reader stage: parse, convert and check each entry, in file order. */
    private void read(BufferedReader in, BlockingQueue<Item> queue) {
        LdifRecords records = new LdifRecords(in);
        try {
            for (LdifEntry ldifEntry = records.read(); ldifEntry != null; ldifEntry = records.read()) {
                long position = records.position();
                String dn = ldifEntry.getDn().getName();
                if (!ldifEntry.isEntry()) {
                    queue.put(failure(position, dn, "only plain entries can be imported, not change records"));
                    return;
                }
                try {
                    Dn parsed = open.directory().schemaNormalizer().dn(dn);
                    Entry entry = newEntries.prepare(parsed, ldifEntry.getEntry(), true, Dn.EMPTY_DN);
                    // Computed from the groups once every entry is in, whatever the LDIF said.
                    entry.removeAttributes(memberOfType);
                    queue.put(new Item(position, dn, entry, null));
                } catch (ResultCodeException e) {
                    queue.put(failure(
                            position, dn, e.getMessage() + " [" + e.code().getMessage() + "]"));
                    return;
                }
            }
            queue.put(Item.END);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ImportException e) {
            putFailure(queue, e.getMessage());
        } catch (RuntimeException e) {
            putFailure(queue, "entry " + (records.position() + 1) + ": " + e.getMessage());
        }
    }

    /** Blocking put: the writer keeps draining the queue until it sees a failure or the end. */
    private static void putFailure(BlockingQueue<Item> queue, String message) {
        try {
            queue.put(new Item(-1, null, null, message));
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static Item failure(long position, String dn, String reason) {
        return new Item(position, dn, null, "entry " + position + " (" + dn + "): " + reason);
    }

    private void insert(WriteTxn txn, Item item) {
        try {
            newEntries.insert(txn, item.entry());
        } catch (ResultCodeException e) {
            throw new ImportException("entry " + item.position() + " (" + item.dn() + "): " + e.getMessage() + " ["
                    + e.code().getMessage() + "]");
        }
    }

    private static Item take(BlockingQueue<Item> queue) {
        try {
            return queue.take();
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
