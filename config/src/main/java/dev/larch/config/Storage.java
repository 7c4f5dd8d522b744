package dev.larch.config;

import java.nio.file.Path;
import java.util.Objects;

/**
 * The LMDB store.
 *
 * @param dataDir the directory holding the store and the admin password file; never null. A relative
 *     path given on the command line is relative to the working directory; one read from a config
 *     file has already been resolved against that file's directory.
 * @param mapSizeBytes the LMDB map size, the most the store can ever hold; the file is sparse, so a
 *     large value costs no disk until used
 * @param maxReaders the most concurrent read transactions
 * @param durableWrites whether every acknowledged write is synced to disk before the response
 * @param importBatchEntries entries per write transaction during offline import
 * @param createSuffix whether a server starting on an empty store (no entry at all) adds the suffix
 *     entry itself ({@code storage.create-suffix})
 * @param groupCommitMaxOperations the most writes committed together in one transaction, sharing
 *     its sync ({@code storage.group-commit-max-operations}); 1 commits each alone
 * @param importSortMemoryBytes the most index records, in bytes, an import into an empty store holds
 *     in memory before spilling them to sorted run files ({@code storage.import-sort-memory}); 0
 *     writes each entry's index records directly instead, as an import into a non-empty store does
 */
public record Storage(
        Path dataDir,
        long mapSizeBytes,
        int maxReaders,
        boolean durableWrites,
        int importBatchEntries,
        boolean createSuffix,
        int groupCommitMaxOperations,
        long importSortMemoryBytes) {
    public Storage {
        Objects.requireNonNull(dataDir, "dataDir");
        if (groupCommitMaxOperations < 1) {
            throw new IllegalArgumentException("groupCommitMaxOperations must be at least 1");
        }
        if (importSortMemoryBytes < 0) {
            throw new IllegalArgumentException("importSortMemoryBytes must not be negative");
        }
    }

    /** A copy with the data directory replaced, for {@code --data}. */
    public Storage withDataDir(Path dir) {
        return new Storage(
                dir,
                mapSizeBytes,
                maxReaders,
                durableWrites,
                importBatchEntries,
                createSuffix,
                groupCommitMaxOperations,
                importSortMemoryBytes);
    }
}
