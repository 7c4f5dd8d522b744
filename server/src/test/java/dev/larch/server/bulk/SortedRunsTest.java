package dev.larch.server.bulk;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SortedRunsTest {
    @TempDir
    Path dir;

    /** A record as the tests expect it back; {@code sameKey} as the merge reports it. */
    private record Rec(byte[] key, long id, boolean sameKey) {
        @Override
        public String toString() {
            return Arrays.toString(key) + "=" + id + (sameKey ? "+" : "");
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Rec r && Arrays.equals(key, r.key) && id == r.id && sameKey == r.sameKey;
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(key) * 31 + Long.hashCode(id);
        }
    }

    /** LMDB's default order: unsigned bytes, a proper prefix first; then the ID. */
    private static final Comparator<Rec> LMDB_ORDER =
            Comparator.<Rec, byte[]>comparing(Rec::key, Arrays::compareUnsigned).thenComparingLong(Rec::id);

    private static List<Rec> drain(SortedRuns runs, int index) throws Exception {
        List<Rec> out = new ArrayList<>();
        runs.merge(index, (key, length, id, sameKey) -> out.add(new Rec(Arrays.copyOf(key, length), id, sameKey)));
        return out;
    }

    /** What the merge must yield for {@code added}: sorted, distinct, sameKey marking repeats of a key. */
    private static List<Rec> expected(List<Rec> added) {
        TreeSet<Rec> sorted = new TreeSet<>(LMDB_ORDER);
        sorted.addAll(added);
        List<Rec> out = new ArrayList<>();
        byte[] last = null;
        for (Rec r : sorted) {
            out.add(new Rec(r.key(), r.id(), last != null && Arrays.equals(last, r.key())));
            last = r.key();
        }
        return out;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void recordsComeBackByKeyThenIdWithAPrefixBeforeItsExtensions() throws Exception {
        List<Rec> added = List.of(
                new Rec(bytes("abc"), 7, false),
                new Rec(bytes("ab"), 9, false),
                new Rec(bytes("abc"), 3, false),
                new Rec(new byte[] {'a', 'b', 0}, 1, false),
                new Rec(new byte[] {(byte) 0xE2, 1}, 2, false), // above every ASCII key: bytes are unsigned
                new Rec(bytes("b"), 4, false));
        try (SortedRuns runs = new SortedRuns(1, 1 << 20, dir)) {
            for (Rec r : added) {
                runs.add(0, r.key(), r.id());
            }
            List<Rec> out = drain(runs, 0);
            assertEquals(expected(added), out);
            assertEquals(
                    List.of("ab=9", "ab\0=1", "abc=3", "abc=7+", "b=4"),
                    out.subList(0, 5).stream()
                            .map(r -> new String(r.key(), StandardCharsets.ISO_8859_1) + "=" + r.id()
                                    + (r.sameKey() ? "+" : ""))
                            .toList());
            assertEquals(0, runs.spills());
        }
    }

    @Test
    void longKeysSharingTheirFirstSevenBytesAreComparedInFull() throws Exception {
        List<Rec> added = new ArrayList<>();
        for (String s : List.of("user.1234z", "user.1234a", "user.1234", "user.12345", "user.123", "user.1234aa")) {
            added.add(new Rec(bytes(s), added.size() + 1, false));
        }
        try (SortedRuns runs = new SortedRuns(1, 1 << 20, dir)) {
            for (Rec r : added) {
                runs.add(0, r.key(), r.id());
            }
            assertEquals(expected(added), drain(runs, 0));
        }
    }

    @Test
    void repeatedLongKeysSharedInMemorySortAsTheirBytesAndIdsDo() throws Exception {
        // Few distinct long values repeated in random ID order (as objectClass is), among many that
        // share a seven-byte prefix and collide in the table of recent keys: shared and copied keys
        // must order alike.
        Random random = new Random(13);
        List<String> values = new ArrayList<>(List.of("inetorgperson", "organizationalperson", "organization"));
        for (int i = 0; i < 3000; i++) {
            values.add("person-" + i);
        }
        List<Rec> added = new ArrayList<>();
        for (int i = 0; i < 40_000; i++) {
            String value = i % 2 == 0 ? values.get(random.nextInt(3)) : values.get(random.nextInt(values.size()));
            added.add(new Rec(bytes(value), random.nextInt(20_000), false));
        }
        try (SortedRuns runs = new SortedRuns(1, 1 << 30, dir)) {
            for (Rec r : added) {
                runs.add(0, r.key(), r.id());
            }
            assertEquals(expected(added), drain(runs, 0));
            assertEquals(0, runs.spills());
        }
    }

    @Test
    void recordsAddedInIdOrderAsABulkLoadAddsThemSortAsAnyOthers() throws Exception {
        // The radix path: short keys (grams), long keys sharing seven bytes, keys of every length up
        // to eight, several keys per ID and the same pair twice.
        Random random = new Random(29);
        List<Rec> added = new ArrayList<>();
        for (long id = 1; id <= 20_000; id++) {
            int keys = 1 + random.nextInt(4);
            for (int k = 0; k < keys; k++) {
                byte[] key = switch (random.nextInt(4)) {
                    case 0 -> bytes("g" + (char) ('a' + random.nextInt(26)));
                    case 1 -> bytes("person-" + random.nextInt(500));
                    case 2 -> bytes("inetorgperson");
                    default -> {
                        byte[] b = new byte[1 + random.nextInt(8)];
                        random.nextBytes(b);
                        yield b;
                    }
                };
                added.add(new Rec(key, id, false));
                if (random.nextInt(50) == 0) {
                    added.add(new Rec(key, id, false));
                }
            }
        }
        try (SortedRuns runs = new SortedRuns(1, 1 << 30, dir)) {
            for (Rec r : added) {
                runs.add(0, r.key(), r.id());
            }
            assertEquals(expected(added), drain(runs, 0));
        }
    }

    @Test
    void aPairAddedTwiceComesOutOnceEvenFromDifferentRuns() throws Exception {
        try (SortedRuns runs = new SortedRuns(1, 1, dir)) { // a bound of one byte: every add spills
            runs.add(0, bytes("k"), 5);
            runs.add(0, bytes("k"), 5);
            runs.add(0, bytes("k"), 6);
            runs.add(0, bytes("k"), 5);
            assertTrue(runs.spills() >= 3, "spills: " + runs.spills());
            assertEquals(List.of(new Rec(bytes("k"), 5, false), new Rec(bytes("k"), 6, true)), drain(runs, 0));
        }
    }

    @Test
    void spilledRunsAndMemoryMergeIntoOneOrderPerIndex() throws Exception {
        Random random = new Random(42);
        List<List<Rec>> added = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        try (SortedRuns runs = new SortedRuns(3, 64 << 10, dir)) {
            for (long id = 1; id <= 20_000; id++) {
                int index = random.nextInt(3);
                // Short keys (many IDs per key, like substring grams) and long ones (like mail values).
                byte[] key = random.nextBoolean()
                        ? new byte[] {(byte) random.nextInt(4), (byte) random.nextInt(256), (byte) random.nextInt(3)}
                        : bytes("user." + random.nextInt(3000) + "@example.com");
                runs.add(index, key, id);
                added.get(index).add(new Rec(key, id, false));
                if (random.nextInt(50) == 0) {
                    runs.add(index, key, id); // an entry whose two values give the same stored key
                }
            }
            assertTrue(runs.spills() > 3, "the bound must have forced spills: " + runs.spills());
            assertTrue(runs.heldBytes() <= 64 << 10, "held: " + runs.heldBytes());
            for (int i = 0; i < 3; i++) {
                assertEquals(expected(added.get(i)), drain(runs, i), "index " + i);
            }
        }
    }

    /**
     * Run files are read and written a 64 KB buffer at a time: records straddle the buffers' ends,
     * and a key near the 64 KB limit does not fit one at all.
     */
    @Test
    void recordsAcrossAndBeyondTheFileBufferComeBackWhole() throws Exception {
        Random random = new Random(7);
        List<Rec> added = new ArrayList<>();
        try (SortedRuns runs = new SortedRuns(1, 64 << 10, dir)) {
            for (long id = 1; id <= 3_000; id++) {
                int length = id % 500 == 0 ? KeyIdRecords.MAX_KEY_BYTES - random.nextInt(3) : 1 + random.nextInt(300);
                byte[] key = new byte[length];
                random.nextBytes(key);
                runs.add(0, key, id);
                added.add(new Rec(key, id, false));
            }
            assertTrue(runs.spills() > 3, "the bound must have forced spills: " + runs.spills());
            assertEquals(expected(added), drain(runs, 0));
        }
    }

    /** The parts several threads filled merge into one order per index, each pair once. */
    @Test
    void partsFilledApartDrainAsOneOrderPerIndex() throws Exception {
        Random random = new Random(11);
        List<List<Rec>> added = List.of(new ArrayList<>(), new ArrayList<>());
        try (SortedIndexRecords first = new SortedIndexRecords(2, 64 << 10, dir, "test-runs-");
                SortedIndexRecords second = new SortedIndexRecords(2, 64 << 10, dir, "test-runs-")) {
            for (long id = 1; id <= 20_000; id++) {
                int index = random.nextInt(2);
                byte[] key = new byte[] {(byte) random.nextInt(8), (byte) random.nextInt(256)};
                (id <= 10_000 ? first : second).add(index, key, id);
                added.get(index).add(new Rec(key, id, false));
            }
            first.add(0, new byte[] {1, 2}, 5); // the same pair in both parts comes out once
            second.add(0, new byte[] {1, 2}, 5);
            added.get(0).add(new Rec(new byte[] {1, 2}, 5, false));
            assertTrue(first.spills() > 1 && second.spills() > 1, "both parts must have spilled");
            for (int i = 0; i < 2; i++) {
                List<Rec> out = new ArrayList<>();
                SortedIndexRecords.drain(
                        List.of(first, second),
                        i,
                        (key, length, id) -> out.add(new Rec(Arrays.copyOf(key, length), id, false)));
                List<Rec> want = new ArrayList<>();
                expected(added.get(i)).forEach(r -> want.add(new Rec(r.key(), r.id(), false)));
                assertEquals(want, out, "index " + i);
            }
        }
    }

    @Test
    void closeRemovesTheRunFilesAndTheirDirectory() throws Exception {
        Path tempDir;
        try (SortedRuns runs = new SortedRuns(2, 1, dir)) {
            runs.add(0, bytes("a"), 1);
            runs.add(1, bytes("b"), 2);
            tempDir = runs.tempDir();
            try (Stream<Path> files = Files.list(tempDir)) {
                assertFalse(files.toList().isEmpty());
            }
        }
        assertFalse(Files.exists(tempDir));
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(), left.toList());
        }
    }

    @Test
    void theSortPrefixOrdersKeysAsTheirBytesDo() {
        byte[][] keys = {bytes(""), bytes("a"), new byte[] {'a', 0}, bytes("ab"), bytes("abcdefg"), bytes("abcdefgh")};
        for (int i = 0; i + 1 < keys.length; i++) {
            long a = KeyIdRecords.prefix(keys[i], 0, keys[i].length);
            long b = KeyIdRecords.prefix(keys[i + 1], 0, keys[i + 1].length);
            assertTrue(Long.compareUnsigned(a, b) <= 0, i + ": " + Arrays.toString(keys[i]));
        }
        // Seven bytes or more in common: the prefixes tie and the full comparison decides.
        assertEquals(KeyIdRecords.prefix(bytes("abcdefgz"), 0, 8), KeyIdRecords.prefix(bytes("abcdefgaa"), 0, 9));
    }

    @Test
    void anIndexWithManyRunsHasThemMergedSoFewFilesAreEverOpen() throws Exception {
        List<Rec> added = new ArrayList<>();
        try (SortedRuns runs = new SortedRuns(1, 1, dir)) { // every add spills: one run per record
            for (long id = 1; id <= 3L * SortedRuns.MAX_RUNS; id++) {
                byte[] key = bytes("k" + (id % 7));
                runs.add(0, key, id);
                added.add(new Rec(key, id, false));
            }
            try (Stream<Path> files = Files.list(runs.tempDir())) {
                assertTrue(files.count() <= SortedRuns.MAX_RUNS, "run files are merged once there are too many");
            }
            assertEquals(expected(added), drain(runs, 0));
        }
    }
}
