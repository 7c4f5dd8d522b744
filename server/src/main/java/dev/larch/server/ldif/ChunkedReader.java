package dev.larch.server.ldif;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.CharacterCodingException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.directory.api.ldap.model.ldif.LdifEntry;

/**
 * The import's reader stage on several threads: one thread cuts the LDIF into chunks of whole
 * records (at empty lines, counting records and lines as it goes), {@code workers} threads parse
 * and check the chunks ({@link LdifRecords} and the importer's {@link Preparer}), and {@link
 * #next()} hands the results on in file order. Errors name the record's position and line in the
 * whole file, as a single reader would.
 *
 * <p>Memory: at most {@code 2 * workers + 2} chunks of {@value #CHUNK_RECORDS} records are read
 * ahead of the consumer, parsed or not.
 *
 * <p>{@link #next()} is for one consumer thread; {@link #close()} stops the other threads.
 */
final class ChunkedReader implements AutoCloseable {
    static final int CHUNK_RECORDS = 64;

    /** Parses and checks one record into an item (a failure item when it is refused). */
    interface Preparer {
        ImportItem prepare(LdifEntry record, long position);
    }

    private final BufferedReader in;
    private final Preparer preparer;
    private final UrlValues urlValues;
    private final ExecutorService workers;
    private final BlockingQueue<CompletableFuture<List<ImportItem>>> ordered;
    private final Thread splitter;
    private List<ImportItem> current = List.of();
    private int index;
    private boolean done;
    private volatile boolean closed;

    ChunkedReader(BufferedReader in, int workers, Preparer preparer, UrlValues urlValues) {
        this.in = in;
        this.preparer = preparer;
        this.urlValues = urlValues;
        AtomicInteger n = new AtomicInteger();
        this.workers = Executors.newFixedThreadPool(
                Math.max(1, workers),
                r -> Thread.ofPlatform()
                        .name("larch-import-parse-" + n.incrementAndGet())
                        .daemon()
                        .unstarted(r));
        this.ordered = new ArrayBlockingQueue<>(2 * Math.max(1, workers) + 2);
        this.splitter = Thread.ofPlatform().name("larch-import-reader").daemon().start(this::split);
    }

    /**
     * The next item in file order: an entry, a failure (after which nothing follows) or {@link
     * ImportItem#END}.
     */
    ImportItem next() throws InterruptedException {
        while (index == current.size()) {
            if (done) {
                return ImportItem.END;
            }
            current = ordered.take().join();
            index = 0;
        }
        ImportItem item = current.get(index++);
        if (item.failure() != null || item.isEnd()) {
            done = true;
            current = List.of();
            index = 0;
        }
        return item;
    }

    /** The splitter thread: whole records, chunk by chunk, in file order. */
    private void split() {
        StringBuilder chunk = new StringBuilder(64 * 1024);
        long recordsBefore = 0; // records in the chunks already handed out
        int linesBefore = 0; // lines in them
        int recordsInChunk = 0;
        int linesInChunk = 0;
        // The chunk up to the end of its last whole record (its blank line): a read error cuts the
        // record in progress, which must not be parsed as if it ended there.
        int wholeChars = 0;
        int wholeLines = 0;
        boolean blockHasRecord = false;
        boolean firstBlock = true;
        try {
            for (String line = in.readLine(); ; line = in.readLine()) {
                if (line == null || line.isEmpty()) {
                    if (blockHasRecord) {
                        recordsInChunk++;
                        blockHasRecord = false;
                        firstBlock = false;
                    }
                    if (line == null || recordsInChunk == CHUNK_RECORDS) {
                        if (line != null) {
                            chunk.append('\n');
                            linesInChunk++;
                        }
                        submit(chunk.toString(), recordsBefore, linesBefore);
                        recordsBefore += recordsInChunk;
                        linesBefore += linesInChunk;
                        chunk.setLength(0);
                        recordsInChunk = 0;
                        linesInChunk = 0;
                        wholeChars = 0;
                        wholeLines = 0;
                        if (line == null) {
                            ordered.put(CompletableFuture.completedFuture(List.of(ImportItem.END)));
                            return;
                        }
                        continue;
                    }
                } else if (line.charAt(0) != '#' && line.charAt(0) != ' ') {
                    // A "version:" line alone before the first record is the file's header, no record.
                    blockHasRecord |= !(firstBlock && !blockHasRecord && line.startsWith("version:"));
                }
                chunk.append(line).append('\n');
                linesInChunk++;
                if (line.isEmpty()) {
                    wholeChars = chunk.length();
                    wholeLines = linesInChunk;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            if (closed) {
                return; // the consumer stopped and closed the input: nobody waits for more
            }
            String reason = e instanceof CharacterCodingException ? "the file is not UTF-8 (" + e + ")" : e.toString();
            // The whole records before the bad bytes are parsed and written first, as a single reader
            // would; the one being read when they came is named in the failure.
            submit(chunk.substring(0, wholeChars), recordsBefore, linesBefore);
            String message = "entry " + (recordsBefore + recordsInChunk + 1) + ": cannot read the file after line "
                    + (linesBefore + wholeLines) + ": " + reason;
            try {
                ordered.put(CompletableFuture.completedFuture(List.of(ImportItem.failure(message))));
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void submit(String text, long recordsBefore, int linesBefore) {
        CompletableFuture<List<ImportItem>> parsed;
        try {
            parsed = CompletableFuture.supplyAsync(() -> parse(text, recordsBefore, linesBefore), workers);
        } catch (RejectedExecutionException e) {
            return; // closed: the consumer stopped
        }
        try {
            ordered.put(parsed);
        } catch (InterruptedException e) {
            parsed.cancel(false);
            Thread.currentThread().interrupt();
        }
    }

    /** One chunk's items; a failure item ends the list. */
    private List<ImportItem> parse(String text, long recordsBefore, int linesBefore) {
        List<ImportItem> items = new ArrayList<>(CHUNK_RECORDS);
        LdifRecords records =
                new LdifRecords(new BufferedReader(new StringReader(text)), recordsBefore, linesBefore, urlValues);
        try {
            for (LdifEntry record = records.read(); record != null; record = records.read()) {
                ImportItem item = preparer.prepare(record, records.position());
                items.add(item);
                if (item.failure() != null) {
                    break;
                }
            }
        } catch (LdifImporter.ImportException e) {
            items.add(ImportItem.failure(e.getMessage()));
        } catch (RuntimeException e) {
            items.add(ImportItem.failure("entry " + (records.position() + 1) + ": " + e.getMessage()));
        }
        return items;
    }

    @Override
    public void close() {
        closed = true;
        splitter.interrupt();
        workers.shutdownNow();
        ordered.clear();
    }
}
