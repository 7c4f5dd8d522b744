package dev.larch.server.sync;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SyncIdSetBatcherTest {

    private final List<List<byte[]>> batches = new ArrayList<>();
    private final SyncIdSetBatcher batcher = new SyncIdSetBatcher(batches::add);

    @Test
    void fullBatchesOf256GoOutAtOnceAndTheRestOnFlush() {
        for (int i = 0; i < 600; i++) {
            batcher.add(uuid(i));
            assertEquals((i + 1) / 256, batches.size(), "a full batch is handed over as soon as it is full");
        }
        assertEquals(600 - 512, batcher.pending());

        batcher.flush();

        assertEquals(List.of(256, 256, 88), batches.stream().map(List::size).toList());
        assertArrayEquals(uuid(0), batches.get(0).get(0));
        assertArrayEquals(uuid(599), batches.get(2).get(87));
        assertEquals(0, batcher.pending());
    }

    @Test
    void anEmptyPhaseSendsNoBatch() {
        batcher.flush();
        batcher.flush();

        assertEquals(List.of(), batches);
    }

    @Test
    void exactlyOneBatchLeavesNothingForTheFlush() {
        for (int i = 0; i < SyncIdSetBatcher.BATCH_SIZE; i++) {
            batcher.add(uuid(i));
        }
        batcher.flush();

        assertEquals(1, batches.size());
    }

    @Test
    void theBatcherKeepsCopiesNotTheCallersArrays() {
        byte[] reused = uuid(1);
        batcher.add(reused);
        reused[0] = 99;
        batcher.flush();

        assertArrayEquals(uuid(1), batches.get(0).get(0));
        assertThrows(UnsupportedOperationException.class, () -> batches.get(0).add(uuid(2)));
    }

    @Test
    void aUuidOfAnotherLengthIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> batcher.add(new byte[15]));
    }

    static byte[] uuid(int n) {
        byte[] uuid = new byte[16];
        uuid[14] = (byte) (n >> 8);
        uuid[15] = (byte) n;
        return uuid;
    }
}
