package dev.larch.server.bulk;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Collects the (key, ID) records of several indexes, numbered 0 to n-1, and hands each index's
 * records back sorted by key then ID, each distinct pair once, so that an empty index can be filled
 * by appending.
 *
 * <p>Memory: the records wait in memory ({@link KeyIdRecords}, about 22 bytes per record plus the
 * key, in buffers that grow by doubling) until all buffers together, with the scratch memory that
 * sorting the largest of them takes ({@link KeyIdRecords#sortScratchBytes()}), hold more than the
 * bound given; then every buffer is sorted and written to a run file, and memory starts over. Merging reads one
 * index's runs at a time, 64 KB of buffer each; an index that reaches {@value #MAX_RUNS} runs has them
 * merged into one, so no more files are ever open at once. So memory stays near the bound (a buffer being grown
 * briefly holds its old and new arrays) whatever the input's size; disk takes about what the
 * records take in memory.
 *
 * <p>Files: a directory of its own created under the directory given, removed with every run by
 * {@link #close()}, which callers run on success and failure alike.
 *
 * <p>Not thread-safe.
 */
final class SortedRuns implements AutoCloseable {
    /** The most run files one index has before they are merged into one. */
    static final int MAX_RUNS = 64;

    private final KeyIdRecords[] buffers;
    private final List<List<Path>> runs = new ArrayList<>();
    private final long memoryBound;
    private final Path tempParent;
    private final String tempPrefix;
    private Path tempDir;
    private long held;
    /** The most scratch memory sorting one of the buffers would take now. */
    private long scratch;

    private int spills;

    /**
     * @param indexes how many indexes records are collected for
     * @param memoryBound bytes of buffers beyond which every buffer is spilled to a run file
     * @param tempParent where the run files' directory is created, when one is needed
     */
    SortedRuns(int indexes, long memoryBound, Path tempParent) {
        this(indexes, memoryBound, tempParent, "import-runs-");
    }

    /** @param tempPrefix how the run files' directory's name begins, to tell whose it is */
    SortedRuns(int indexes, long memoryBound, Path tempParent, String tempPrefix) {
        this.tempPrefix = tempPrefix;
        this.buffers = new KeyIdRecords[indexes];
        for (int i = 0; i < indexes; i++) {
            buffers[i] = new KeyIdRecords();
            runs.add(new ArrayList<>());
            held += buffers[i].bytes();
        }
        this.memoryBound = memoryBound;
        this.tempParent = tempParent;
    }

    /** Adds a record to index {@code index}; may spill every buffer to disk first. */
    void add(int index, byte[] key, long id) throws IOException {
        KeyIdRecords buffer = buffers[index];
        long before = buffer.bytes();
        buffer.add(key, id);
        held += buffer.bytes() - before;
        scratch = Math.max(scratch, buffer.sortScratchBytes());
        if (held + scratch > memoryBound) {
            spill();
        }
    }

    /** How many times the buffers were written out to run files. */
    int spills() {
        return spills;
    }

    /** Bytes the buffers hold now. */
    long heldBytes() {
        return held;
    }

    /** The directory holding the run files; null until the first spill. */
    Path tempDir() {
        return tempDir;
    }

    /**
     * Feeds index {@code index}'s records, sorted and distinct, to {@code sink}, then frees its
     * memory and deletes its run files. Call once per index.
     *
     * @return how many records the sink received
     */
    long merge(int index, MergedRuns.Sink sink) throws IOException {
        long n;
        try (MergedRuns merged = new MergedRuns(sorted(index))) {
            n = merged.drainTo(sink);
        }
        release(index);
        return n;
    }

    /**
     * Index {@code index}'s records as sorted sources, its run files and its sorted buffer, to be
     * merged (with other instances' sources too); closing them is the caller's, and {@link
     * #release} then frees what they read.
     */
    List<KeyIdCursor> sorted(int index) throws IOException {
        KeyIdRecords buffer = buffers[index];
        buffer.sort();
        List<KeyIdCursor> sources = new ArrayList<>();
        try {
            for (Path run : runs.get(index)) {
                sources.add(RunFile.read(run));
            }
            sources.add(buffer.cursor());
        } catch (IOException e) {
            for (KeyIdCursor opened : sources) {
                opened.close();
            }
            throw e;
        }
        return sources;
    }

    /** Frees index {@code index}'s memory and deletes its run files, once its sources are closed. */
    void release(int index) throws IOException {
        KeyIdRecords buffer = buffers[index];
        held -= buffer.bytes();
        buffer.clear();
        held += buffer.bytes();
        for (Path run : runs.get(index)) {
            Files.deleteIfExists(run);
        }
        runs.get(index).clear();
    }

    /**
     * Merges the runs of index {@code index} into one run file once it has {@link #MAX_RUNS}: the
     * final merge then never holds more than that many files open, whatever the input's size.
     */
    private void compact(int index) throws IOException {
        List<Path> files = runs.get(index);
        if (files.size() < MAX_RUNS) {
            return;
        }
        List<KeyIdCursor> sources = new ArrayList<>();
        for (Path run : files) {
            sources.add(RunFile.read(run));
        }
        Path merged = tempDir.resolve("run-" + spills + "-index-" + index + "-merged");
        try (MergedRuns all = new MergedRuns(sources);
                RunFile.Writer out = RunFile.writer(merged)) {
            all.drainTo((key, length, id, sameKey) -> out.write(key, 0, length, id));
        }
        for (Path run : files) {
            Files.deleteIfExists(run);
        }
        files.clear();
        files.add(merged);
    }

    private void spill() throws IOException {
        if (tempDir == null) {
            tempDir = Files.createTempDirectory(tempParent, tempPrefix);
        }
        held = 0;
        scratch = 0;
        for (int i = 0; i < buffers.length; i++) {
            KeyIdRecords buffer = buffers[i];
            if (buffer.size() > 0) {
                buffer.sort();
                Path file = tempDir.resolve("run-" + spills + "-index-" + i);
                RunFile.write(buffer.cursor(), file);
                runs.get(i).add(file);
                buffer.clear();
                compact(i);
            }
            held += buffer.bytes();
        }
        spills++;
    }

    /** Deletes every run file and the directory holding them. */
    @Override
    public void close() throws IOException {
        for (KeyIdRecords buffer : buffers) {
            buffer.clear();
        }
        if (tempDir == null || !Files.exists(tempDir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(tempDir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
