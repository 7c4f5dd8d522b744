package dev.larch.server.directory;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

import dev.larch.config.Replication;
import dev.larch.server.csn.Csn;
import dev.larch.server.csn.CsnClock;
import dev.larch.server.entry.EntryUuids;
import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.store.LmdbStore;
import dev.larch.server.store.LoggedChange;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.store.WriteTxn;
import org.apache.directory.api.ldap.model.constants.SchemaConstants;
import org.apache.directory.api.ldap.model.entry.Attribute;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.entry.Value;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.schema.AttributeType;
import org.apache.directory.api.ldap.model.schema.SchemaManager;

/**
 * Stamps each change the {@link Directory} makes with this server's next CSN ({@code entryCSN}) and
 * records it in the store's change log, in the transaction that makes it: what content
 * synchronization serves consumers from. The log is trimmed as it grows, once per transaction, to
 * {@code maxChanges} records and {@code maxAgeSeconds} of age.
 *
 * <p>Used on the writer thread only (and by offline tools on theirs).
 */
public final class ChangeStamps {
    private final CsnClock clock;
    private final long maxChanges;
    private final long maxAgeSeconds;
    private final AttributeType entryCsn;
    private final AttributeType entryUuid;
    private final Object trimOwner = new Object();

    /**
     * @param clock this server's CSNs
     * @param maxChanges the most changes the log keeps; 0 for no bound by count
     * @param maxAgeSeconds the oldest change the log keeps, in seconds; 0 for no bound by age
     */
    public ChangeStamps(SchemaManager schema, CsnClock clock, long maxChanges, long maxAgeSeconds) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.maxChanges = maxChanges;
        this.maxAgeSeconds = maxAgeSeconds;
        this.entryCsn = schema.getAttributeType(SchemaConstants.ENTRY_CSN_AT);
        this.entryUuid = schema.getAttributeType(SchemaConstants.ENTRY_UUID_AT);
    }

    /**
     * The stamps of the server {@code replication} configures, over {@code store}: its CSN clock starts
     * above every CSN the store holds, so CSNs keep increasing across a restart even when the clock
     * stepped back meanwhile.
     */
    public static ChangeStamps forStore(LmdbStore store, SchemaManager schema, Replication replication) {
        CsnClock clock = CsnClock.system(replication.serverId());
        try (ReadTxn txn = store.read()) {
            for (byte[] csn : txn.contextCsns()) {
                clock.observe(Csn.fromBytes(csn));
            }
        }
        return new ChangeStamps(schema, clock, replication.changelogMaxChanges(), replication.changelogMaxAgeSeconds());
    }

    /** This server's ID, the one its CSNs carry. */
    public int serverId() {
        return clock.sid();
    }

    /**
     * Shows the clock a CSN another server stamped (a replicated change): this server's later CSNs
     * sort above it, so a change made here after it was applied wins over it.
     */
    public void observe(Csn seen) {
        clock.observe(seen);
    }

    /** This server's next CSN. */
    public Csn nextCsn() {
        return clock.next();
    }

    /** The next CSN, for a change that stamps no entry (a delete). */
    byte[] next() {
        return clock.next().toBytes();
    }

    /** Stamps the next CSN on {@code entry}, replacing the one it had; returns the CSN. */
    byte[] stampNew(Entry entry) {
        byte[] csn = next();
        put(entry, csn);
        return csn;
    }

    /**
     * The CSN {@code entry} already carries (an imported or replicated entry keeps its own), or
     * {@link #stampNew} when it carries none, or one that is not a CSN of OpenLDAP's format.
     */
    byte[] stampUnlessPresent(Entry entry) {
        Attribute present = entry.get(entryCsn);
        if (present != null && present.size() == 1) {
            try {
                return Csn.parse(present.get().getString()).toBytes();
            } catch (IllegalArgumentException notACsn) {
                // replaced below
            }
        }
        return stampNew(entry);
    }

    /** Records the change stamped {@code csn} of {@code entry} in the log, and trims the log. */
    void log(WriteTxn txn, LoggedChange.Kind kind, StoredEntry entry, byte[] csn) {
        txn.logChange(new LoggedChange(csn, kind, entry.id(), uuidOf(entry)));
        txn.beforeCommit(trimOwner, () -> () -> trim(txn));
    }

    /**
     * Records the change {@code csn}, stamped by another server, of {@code entry} in the log without
     * raising the contextCSN ({@link WriteTxn#logReplicatedChange}), and trims the log.
     */
    void logReplicated(WriteTxn txn, LoggedChange.Kind kind, StoredEntry entry, byte[] csn) {
        txn.logReplicatedChange(new LoggedChange(csn, kind, entry.id(), uuidOf(entry)));
        txn.beforeCommit(trimOwner, () -> () -> trim(txn));
    }

    private void trim(WriteTxn txn) {
        // The lowest CSN any server could stamp that long ago: older changes sort below it.
        byte[] keepFrom = maxAgeSeconds > 0
                ? Csn.of((System.currentTimeMillis() / 1000 - maxAgeSeconds) * 1_000_000L, 0, 0, 0)
                        .toBytes()
                : null;
        txn.trimChangeLog(maxChanges, keepFrom);
    }

    private byte[] uuidOf(StoredEntry entry) {
        StoredAttribute uuid = entry.attribute(entryUuid.getOid());
        if (uuid == null || uuid.size() != 1) {
            throw new IllegalStateException("entry " + entry.dn() + " has no entryUUID");
        }
        return EntryUuids.toBytes(new String(uuid.values()[0], StandardCharsets.US_ASCII));
    }

    private void put(Entry entry, byte[] csn) {
        try {
            entry.removeAttributes(entryCsn);
            entry.put(entryCsn, new Value(entryCsn, new String(csn, StandardCharsets.US_ASCII)));
        } catch (LdapException e) {
            throw new ResultCodeException(ResultCodeEnum.OTHER, "cannot stamp the entry's CSN: " + e.getMessage());
        }
    }
}
