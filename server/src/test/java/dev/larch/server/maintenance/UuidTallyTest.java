package dev.larch.server.maintenance;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The UUID tally finds exactly the UUIDs added more than once, however many and however ordered. */
class UuidTallyTest {
    private static byte[] bytes(UUID uuid) {
        return ByteBuffer.allocate(16)
                .putLong(uuid.getMostSignificantBits())
                .putLong(uuid.getLeastSignificantBits())
                .array();
    }

    @Test
    void distinctUuidsHaveNoDuplicates() {
        UuidTally tally = new UuidTally();
        for (int i = 0; i < 50_000; i++) {
            tally.add(bytes(UUID.randomUUID()));
        }
        assertEquals(List.of(), tally.duplicates(100));
    }

    @Test
    void eachSharedUuidIsNamedOnceAmongManyOthers() {
        Random random = new Random(7);
        UuidTally tally = new UuidTally();
        Map<UUID, Integer> added = new HashMap<>();
        List<UUID> pool = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            pool.add(new UUID(random.nextLong(), random.nextLong()));
        }
        for (int i = 0; i < 20_000; i++) {
            UUID u = random.nextInt(10) == 0 ? pool.get(random.nextInt(pool.size())) : UUID.randomUUID();
            added.merge(u, 1, Integer::sum);
            tally.add(bytes(u));
        }
        long shared = added.values().stream().filter(n -> n > 1).count();
        List<byte[]> found = tally.duplicates(Integer.MAX_VALUE);
        assertEquals(shared, found.size());
        for (byte[] b : found) {
            ByteBuffer buffer = ByteBuffer.wrap(b);
            UUID u = new UUID(buffer.getLong(), buffer.getLong());
            assertEquals(true, added.get(u) > 1, u.toString());
        }
    }

    @Test
    void oneUuidHeldByEveryEntryIsOneDuplicateAndSortsQuickly() {
        UuidTally tally = new UuidTally();
        byte[] one = bytes(new UUID(-1L, 42L)); // the high bit set: unsigned order matters
        for (int i = 0; i < 200_000; i++) {
            tally.add(one);
        }
        List<byte[]> found = tally.duplicates(100);
        assertEquals(1, found.size());
        assertArrayEquals(one, found.get(0));
    }

    @Test
    void theListIsCutAtTheLimit() {
        UuidTally tally = new UuidTally();
        for (int i = 0; i < 300; i++) {
            byte[] u = bytes(new UUID(i, i));
            tally.add(u);
            tally.add(u);
        }
        assertEquals(100, tally.duplicates(100).size());
    }
}
