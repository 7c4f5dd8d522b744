package dev.larch.server.quota;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BucketTableTest {
    private static final Rate ONE_A_SECOND = Rate.of(1, 1);

    private static QuotaKey key(int n) {
        return new QuotaKey(0, n);
    }

    @Test
    void eachKeyHasItsOwnBucket() {
        BucketTable table = new BucketTable(10, 0);
        TokenBucket a = table.bucketFor(key(1), 0);
        assertSame(a, table.bucketFor(key(1), 0));
        assertNotSame(a, table.bucketFor(key(2), 0));
        assertEquals(2, table.size());
    }

    @Test
    void aFloodOfNewKeysNeverGrowsTheTablePastItsBound() {
        BucketTable table = new BucketTable(100, 0);
        long now = 0;
        for (int i = 0; i < 100_000; i++) {
            // every key spends its token, so none is full and none can be dropped
            table.bucketFor(key(i), now).tryTake(now, ONE_A_SECOND);
            now += 1_000; // a microsecond apart: the whole flood within a second
        }
        assertEquals(100, table.size());
    }

    @Test
    void newKeysBeyondTheBoundShareOneBucketAndTrackedKeysKeepTheirs() {
        BucketTable table = new BucketTable(2, 0);
        assertTrue(table.bucketFor(key(1), 0).tryTake(0, ONE_A_SECOND));
        assertTrue(table.bucketFor(key(2), 0).tryTake(0, ONE_A_SECOND));
        TokenBucket overflow = table.bucketFor(key(3), 0);
        assertSame(overflow, table.bucketFor(key(4), 0));
        assertTrue(overflow.tryTake(0, ONE_A_SECOND));
        assertFalse(table.bucketFor(key(5), 0).tryTake(0, ONE_A_SECOND), "newcomers share the overflow");
        assertNotSame(overflow, table.bucketFor(key(1), 0));
    }

    @Test
    void fullBucketsAreDroppedToMakeRoom() {
        long second = BucketTable.SWEEP_INTERVAL_NANOS;
        BucketTable table = new BucketTable(2, 0);
        table.bucketFor(key(1), 0).tryTake(0, ONE_A_SECOND);
        table.bucketFor(key(2), 0).tryTake(0, ONE_A_SECOND);
        long later = 2 * second; // both buckets refilled: full again
        TokenBucket fresh = table.bucketFor(key(3), later);
        assertTrue(fresh.tryTake(later, ONE_A_SECOND));
        assertSame(fresh, table.bucketFor(key(3), later), "key 3 now has a bucket of its own");
        assertEquals(1, table.size());
    }

    @Test
    void bucketsStillInUseAreNotDropped() {
        long second = BucketTable.SWEEP_INTERVAL_NANOS;
        BucketTable table = new BucketTable(1, 0);
        Rate slow = Rate.of(1, 10); // ten tokens, refilled one a second
        TokenBucket busy = table.bucketFor(key(1), 0);
        for (int i = 0; i < 10; i++) {
            busy.tryTake(0, slow);
        }
        long later = 2 * second; // refilled two of ten: not full
        table.bucketFor(key(2), later);
        assertSame(busy, table.bucketFor(key(1), later));
        assertEquals(1, table.size());
    }

    @Test
    void aFullTableIsSweptAtMostOncePerInterval() {
        long second = BucketTable.SWEEP_INTERVAL_NANOS;
        BucketTable table = new BucketTable(1, 0);
        Rate slow = Rate.of(1, 1);
        table.bucketFor(key(1), 0).tryTake(0, slow);
        // At 0 the sweep runs and finds nothing to drop; the next is due a second later.
        TokenBucket overflow = table.bucketFor(key(2), 0);
        // Key 1 is full again after a second, but no sweep is due before then.
        assertSame(overflow, table.bucketFor(key(2), second - 1));
        assertNotSame(overflow, table.bucketFor(key(2), second));
    }
}
