package dev.larch.server.store;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import dev.larch.config.IndexKind;
import dev.larch.config.LarchConfig;
import dev.larch.server.StoredDirectory;
import dev.larch.server.directory.Directory;
import org.apache.directory.api.ldap.model.schema.SchemaManager;

import static java.nio.charset.StandardCharsets.UTF_8;

/** Stores as format 4 wrote them, for tests of what this build does with one. */
public final class FormatFourStores {
    private static final String MEMBER = "2.5.4.31";

    private FormatFourStores() {}

    /**
     * Turns the store of {@code config} (with some member and memberOf values) into the one format 4
     * wrote: DN-valued equality keys as spelled, version 4.
     */
    public static void rewrite(LarchConfig config, SchemaManager schema) {
        try (StoredDirectory open = StoredDirectory.open(config, schema, false);
                WriteTxn txn = open.store().write()) {
            for (String oid : List.of(MEMBER, Directory.MEMBER_OF_OID)) {
                List<byte[]> keys = new ArrayList<>();
                List<Long> ids = new ArrayList<>();
                txn.forEachIndexRecord(oid, IndexKind.EQUALITY, (key, id) -> {
                    keys.add(key);
                    ids.add(id);
                });
                if (keys.isEmpty()) {
                    throw new IllegalStateException("no " + oid + " value to rewrite: the test's data needs one");
                }
                for (int i = 0; i < keys.size(); i++) {
                    txn.indexDelete(oid, IndexKind.EQUALITY, keys.get(i), ids.get(i));
                    txn.indexAdd(oid, IndexKind.EQUALITY, DnKeys.reverse(keys.get(i)), ids.get(i));
                }
            }
            ByteBuffer key = ByteBuffer.allocateDirect(StoreFormat.META_KEY.length());
            key.put(StoreFormat.META_KEY.getBytes(UTF_8)).flip();
            ByteBuffer four = ByteBuffer.allocateDirect(4);
            four.putInt(0, StoreFormat.UPGRADABLE);
            open.store().meta().tree().put(txn.txn, key, four);
            txn.commit();
        }
    }
}
