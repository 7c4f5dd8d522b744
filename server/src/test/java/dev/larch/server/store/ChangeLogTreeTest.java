package dev.larch.server.store;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static dev.larch.server.store.EntryTreeTest.OPTIONS;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The change log: records in CSN order, trimmed by count and by age, its floor and the contextCSN. */
class ChangeLogTreeTest {
    @TempDir
    Path dir;

    static byte[] csn(String time, int sid) {
        return String.format(Locale.ROOT, "%s.000000Z#000000#%03x#000000", time, sid)
                .getBytes(US_ASCII);
    }

    private static LoggedChange change(byte[] csn, LoggedChange.Kind kind, long id) {
        byte[] uuid = new byte[LoggedChange.UUID_BYTES];
        Arrays.fill(uuid, (byte) id);
        return new LoggedChange(csn, kind, id, uuid);
    }

    private static List<LoggedChange> after(LmdbStore store, byte[] csn) {
        List<LoggedChange> out = new ArrayList<>();
        try (ReadTxn txn = store.read();
                ChangeLogCursor c = txn.changesAfter(csn)) {
            for (LoggedChange change = c.next(); change != null; change = c.next()) {
                out.add(change);
            }
        }
        return out;
    }

    @Test
    void changesComeBackInCsnOrderAfterTheCsnAsked() {
        LoggedChange first = change(csn("20261128100000", 1), LoggedChange.Kind.ADD, 7);
        LoggedChange second = change(csn("20261128100001", 2), LoggedChange.Kind.MODIFY, 7);
        LoggedChange third = change(csn("20261128100002", 1), LoggedChange.Kind.DELETE, 8);
        try (LmdbStore store = LmdbStore.open(dir, OPTIONS, Map.of())) {
            try (WriteTxn txn = store.write()) {
                txn.logChange(third);
                txn.logChange(first);
                txn.logChange(second);
                txn.commit();
            }
            assertEquals(List.of(first, second, third), after(store, null));
            assertEquals(List.of(second, third), after(store, first.csn()));
            assertEquals(List.of(), after(store, third.csn()));
            try (ReadTxn txn = store.read()) {
                assertEquals(3, txn.changeLogSize());
                assertArrayEquals(first.csn(), txn.oldestLoggedChange());
                assertNull(txn.changeLogFloor(), "nothing was trimmed");
                List<String> context = txn.contextCsns().stream()
                        .map(c -> new String(c, US_ASCII))
                        .toList();
                assertEquals(
                        List.of(new String(third.csn(), US_ASCII), new String(second.csn(), US_ASCII)),
                        context,
                        "the highest CSN of each server ID, in server ID order");
            }
        }
    }

    @Test
    void trimmingByCountKeepsTheNewestAndRaisesTheFloorToTheNewestRemoved() {
        try (LmdbStore store = LmdbStore.open(dir, OPTIONS, Map.of())) {
            try (WriteTxn txn = store.write()) {
                for (int i = 0; i < 5; i++) {
                    txn.logChange(change(csn("2026112810000" + i, 1), LoggedChange.Kind.MODIFY, i));
                }
                assertEquals(3, txn.trimChangeLog(2, null));
                txn.commit();
            }
            assertEquals(
                    List.of(3L, 4L),
                    after(store, null).stream().map(LoggedChange::entryId).toList());
            try (ReadTxn txn = store.read()) {
                assertArrayEquals(csn("20261128100002", 1), txn.changeLogFloor());
            }
        }
    }

    @Test
    void trimmingByAgeRemovesWhatSortsBelowTheBound() {
        try (LmdbStore store = LmdbStore.open(dir, OPTIONS, Map.of())) {
            try (WriteTxn txn = store.write()) {
                for (int i = 0; i < 5; i++) {
                    txn.logChange(change(csn("2026112810000" + i, 1), LoggedChange.Kind.MODIFY, i));
                }
                assertEquals(0, txn.trimChangeLog(0, csn("20261128090000", 0)), "all newer than the bound");
                assertEquals(3, txn.trimChangeLog(0, csn("20261128100003", 0)));
                txn.commit();
            }
            assertEquals(
                    List.of(3L, 4L),
                    after(store, null).stream().map(LoggedChange::entryId).toList());
        }
    }

    @Test
    void aBulkLoadLogsNothingAndRaisesTheFloorInstead() {
        try (LmdbStore store = LmdbStore.open(dir, OPTIONS, Map.of())) {
            try (WriteTxn txn = store.write()) {
                txn.bulkLoad((attribute, kind, key, id) -> {});
                txn.logChange(change(csn("20261128100000", 1), LoggedChange.Kind.ADD, 1));
                txn.logChange(change(csn("20261128100001", 1), LoggedChange.Kind.ADD, 2));
                txn.commit();
            }
            try (ReadTxn txn = store.read()) {
                assertEquals(0, txn.changeLogSize());
                assertArrayEquals(csn("20261128100001", 1), txn.changeLogFloor());
                assertEquals(1, txn.contextCsns().size());
            }
        }
    }
}
