package dev.larch.server.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

class IdSetTest {

    @Test
    void unionAllEqualsUnitingPairwise() {
        Random random = new Random(8);
        List<IdSet> sets = new ArrayList<>();
        IdSet pairwise = IdSet.EMPTY;
        for (int s = 0; s < 50; s++) {
            IdSet.Builder b = new IdSet.Builder();
            long id = random.nextInt(20);
            for (int i = random.nextInt(30); i > 0; i--) {
                id += 1 + random.nextInt(40);
                b.add(id);
            }
            IdSet set = b.build();
            sets.add(set);
            pairwise = pairwise.union(set);
        }
        assertArrayEquals(ids(pairwise), ids(IdSet.unionAll(sets)));
    }

    @Test
    void unionAllOfOverlappingSetsKeepsEachIdOnce() {
        IdSet united = IdSet.unionAll(
                List.of(IdSet.ofSorted(1, 5, 9), IdSet.ofSorted(2, 5), IdSet.ofSorted(9, 10), IdSet.ofSorted(1)));
        assertArrayEquals(new long[] {1, 2, 5, 9, 10}, ids(united));
    }

    @Test
    void unionAllOfNoneOrOneSetNeedsNoCopy() {
        assertSame(IdSet.EMPTY, IdSet.unionAll(List.of()));
        IdSet one = IdSet.ofSorted(3, 4);
        assertSame(one, IdSet.unionAll(List.of(one)));
        assertSame(IdSet.EMPTY, IdSet.unionAll(List.of(IdSet.EMPTY, IdSet.EMPTY, IdSet.EMPTY)));
    }

    private static long[] ids(IdSet set) {
        long[] out = new long[set.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = set.get(i);
        }
        return out;
    }
}
