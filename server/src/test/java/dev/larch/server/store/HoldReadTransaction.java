package dev.larch.server.store;

import java.nio.file.Path;
import java.util.Map;

/**
 * A child process for {@link LmdbStoreTest}: opens the store in {@code args[0]}, begins a read
 * transaction, prints "ready" and waits to be killed, leaving a reader slot behind.
 */
public final class HoldReadTransaction {
    private HoldReadTransaction() {}

    public static void main(String[] args) throws InterruptedException {
        LmdbStore store = LmdbStore.open(Path.of(args[0]), LmdbStoreTest.OPTIONS, Map.of());
        ReadTxn txn = store.read();
        System.out.println(txn.entry(1) == null ? "ready (empty)" : "ready");
        System.out.flush();
        Thread.sleep(120_000);
    }
}
