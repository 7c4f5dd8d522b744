package dev.larch.server.store;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static dev.larch.server.store.EntryTreeTest.OPTIONS;
import static dev.larch.server.store.EntryTreeTest.drain;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The DN tree on real LMDB: (parent, RDN) keys, children as a prefix range, the key size limit. */
class DnTreeTest {
    @TempDir
    Path dir;

    private static byte[] rdn(String s) {
        return s.getBytes(UTF_8);
    }

    /** Parent 1 with children b, a, c (IDs 12, 11, 13); parent 256 with child a (ID 21). */
    private LmdbStore storeWithTwoParents() {
        LmdbStore store = LmdbStore.open(dir, OPTIONS, Map.of());
        try (WriteTxn txn = store.write()) {
            txn.putChild(DnTree.NO_PARENT, rdn("dc=example"), 1);
            txn.putChild(1, rdn("uid=b"), 12);
            txn.putChild(1, rdn("uid=a"), 11);
            txn.putChild(1, rdn("uid=c"), 13);
            txn.putChild(256, rdn("uid=a"), 21);
            txn.commit();
        }
        return store;
    }

    @Test
    void aChildIsFoundByParentAndRdnAndGoneOnceDeleted() {
        try (LmdbStore store = storeWithTwoParents()) {
            try (ReadTxn txn = store.read()) {
                assertEquals(1, txn.childId(DnTree.NO_PARENT, rdn("dc=example")));
                assertEquals(11, txn.childId(1, rdn("uid=a")));
                assertEquals(21, txn.childId(256, rdn("uid=a")));
                assertEquals(ReadTxn.NOT_FOUND, txn.childId(2, rdn("uid=a")));
                assertEquals(ReadTxn.NOT_FOUND, txn.childId(1, rdn("uid=")));
                assertEquals(5, txn.dnRecordCount());
            }
            try (WriteTxn txn = store.write()) {
                txn.deleteChild(1, rdn("uid=a"));
                txn.deleteChild(1, rdn("uid=zzz")); // absent: nothing to do
                txn.commit();
            }
            try (ReadTxn txn = store.read()) {
                assertEquals(ReadTxn.NOT_FOUND, txn.childId(1, rdn("uid=a")));
                assertEquals(21, txn.childId(256, rdn("uid=a")));
            }
        }
    }

    @Test
    void childrenAreOneParentsInRdnOrderAndNoOneElses() {
        try (LmdbStore store = storeWithTwoParents();
                ReadTxn txn = store.read()) {
            assertEquals(List.of(11L, 12L, 13L), drain(txn.children(1)));
            assertEquals(List.of(21L), drain(txn.children(256)));
            assertEquals(List.of(), drain(txn.children(2)));
            assertEquals(List.of(1L), drain(txn.children(DnTree.NO_PARENT)));
            assertTrue(txn.hasChildren(1));
            assertFalse(txn.hasChildren(11));
        }
    }

    @Test
    void childrenAfterAnRdnResumeBehindItWhetherOrNotItExists() {
        try (LmdbStore store = storeWithTwoParents();
                ReadTxn txn = store.read()) {
            assertEquals(List.of(12L, 13L), drain(txn.childrenAfter(1, rdn("uid=a"))));
            assertEquals(List.of(13L), drain(txn.childrenAfter(1, rdn("uid=bb")))); // no such child
            assertEquals(List.of(), drain(txn.childrenAfter(1, rdn("uid=c"))));
            assertEquals(List.of(), drain(txn.childrenAfter(256, rdn("uid=a"))));
        }
    }

    @Test
    void theKeyIsTheParentIdThenTheRdn() {
        try (LmdbStore store = storeWithTwoParents();
                ReadTxn txn = store.read()) {
            List<byte[]> keys = new ArrayList<>();
            List<Long> ids = new ArrayList<>();
            txn.forEachDnRecord((key, id) -> {
                keys.add(key);
                ids.add(id);
            });
            assertEquals(List.of(1L, 11L, 12L, 13L, 21L), ids);
            byte[] expected = {0, 0, 0, 0, 0, 0, 1, 0, 'u', 'i', 'd', '=', 'a'};
            assertArrayEquals(expected, keys.get(4), Arrays.toString(keys.get(4)));
        }
    }

    @Test
    void anRdnAtTheKeyLimitIsStoredAndOneByteLongerIsRefused() {
        byte[] longest = new byte[DnTree.MAX_RDN_BYTES];
        Arrays.fill(longest, (byte) 'x');
        byte[] tooLong = new byte[DnTree.MAX_RDN_BYTES + 1];
        Arrays.fill(tooLong, (byte) 'x');
        assertEquals(503, DnTree.MAX_RDN_BYTES);
        try (LmdbStore store = LmdbStore.open(dir, OPTIONS, Map.of())) {
            try (WriteTxn txn = store.write()) {
                txn.putChild(1, longest, 2);
                StoreException refused = assertThrows(StoreException.class, () -> txn.putChild(1, tooLong, 3));
                assertEquals("RDN longer than 503 bytes once normalized", refused.getMessage());
                txn.commit();
            }
            try (ReadTxn txn = store.read()) {
                assertEquals(2, txn.childId(1, longest));
                assertEquals(ReadTxn.NOT_FOUND, txn.childId(1, tooLong)); // could never be stored
                assertEquals(List.of(2L), drain(txn.children(1)));
            }
        }
    }
}
