package dev.larch.server.store;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.larch.config.IndexKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static dev.larch.server.store.EntryTreeTest.OPTIONS;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Filling an empty index by appending, on real LMDB: IDs gathered per key, across transactions. */
class IndexAppenderTest {
    private static final String SN = "2.5.4.4";
    private static final IndexRef REF = new IndexRef(SN, IndexKind.EQUALITY);

    @TempDir
    Path dir;

    private LmdbStore open() {
        return LmdbStore.open(dir, OPTIONS, Map.of(SN, Set.of(IndexKind.EQUALITY)));
    }

    private static byte[] key(String s) {
        return s.getBytes(UTF_8);
    }

    private static List<Long> ids(LmdbStore store, String key) {
        try (ReadTxn txn = store.read()) {
            IdSet ids = txn.ids(SN, IndexKind.EQUALITY, key(key), Integer.MAX_VALUE);
            List<Long> out = new ArrayList<>();
            for (int i = 0; i < ids.size(); i++) {
                out.add(ids.get(i));
            }
            return out;
        }
    }

    private static List<Long> range(long from, long to) {
        List<Long> out = new ArrayList<>();
        for (long id = from; id <= to; id++) {
            out.add(id);
        }
        return out;
    }

    @Test
    void keysWithOneIdAndWithMoreThanOnePutHoldsComeBackWhole() {
        int many = 3 * IndexAppender.IDS_PER_PUT + 7;
        try (LmdbStore store = open()) {
            try (WriteTxn txn = store.write()) {
                try (IndexAppender appender = BulkLoad.appendTo(txn, REF)) {
                    appender.append(key("adams"), 5, 4, false);
                    for (long id = 1; id <= many; id++) {
                        appender.append(key("baker"), 5, id, id > 1);
                    }
                    appender.append(key("clark"), 5, 9, false);
                    appender.append(key("clark"), 5, 12, true);
                }
                txn.commit();
            }
            assertEquals(List.of(4L), ids(store, "adams"));
            assertEquals(range(1, many), ids(store, "baker"));
            assertEquals(List.of(9L, 12L), ids(store, "clark"));
            try (ReadTxn txn = store.read()) {
                assertEquals(many + 3, txn.indexRecordCount(SN, IndexKind.EQUALITY));
            }
        }
    }

    @Test
    void aKeyGoesOnInTheNextTransactionsAppender() {
        try (LmdbStore store = open()) {
            try (WriteTxn txn = store.write()) {
                try (IndexAppender appender = BulkLoad.appendTo(txn, REF)) {
                    appender.append(key("baker"), 5, 1, false);
                    appender.append(key("baker"), 5, 2, true);
                }
                txn.commit();
            }
            try (WriteTxn txn = store.write()) {
                try (IndexAppender appender = BulkLoad.appendTo(txn, REF)) {
                    appender.append(key("baker"), 5, 3, true);
                    appender.append(key("clark"), 5, 1, false);
                }
                txn.commit();
            }
            assertEquals(List.of(1L, 2L, 3L), ids(store, "baker"));
            assertEquals(List.of(1L), ids(store, "clark"));
        }
    }

    @Test
    void aRecordOutOfOrderIsRefused() {
        try (LmdbStore store = open()) {
            try (WriteTxn txn = store.write()) {
                IndexAppender appender = BulkLoad.appendTo(txn, REF);
                appender.append(key("clark"), 5, 1, false);
                appender.append(key("baker"), 5, 2, false);
                assertThrows(StoreException.class, appender::close);
            }
            try (WriteTxn txn = store.write()) {
                IndexAppender appender = BulkLoad.appendTo(txn, REF);
                appender.append(key("clark"), 5, 5, false);
                appender.append(key("clark"), 5, 3, true);
                assertThrows(StoreException.class, appender::close);
            }
        }
    }
}
