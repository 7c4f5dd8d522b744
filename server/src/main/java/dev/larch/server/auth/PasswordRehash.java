package dev.larch.server.auth;

import dev.larch.server.commit.WriteQueue;
import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.store.WriteTxn;
import org.apache.directory.api.ldap.model.entry.Attribute;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.name.Dn;

/**
 * Re-hashes a password on a successful bind ({@code security.rehash-on-bind}): a {@code userPassword}
 * value stored in another scheme or at another cost ({@code {SSHA}} from a migration, fewer PBKDF2
 * iterations) is replaced by a hash of the presented password in the configured scheme, so stored
 * hashes converge on the configured cost and stop telling by their speed which users exist.
 *
 * <p>The new value is written through the {@link WriteQueue} like any server-initiated change, in
 * its own transaction, and only while the entry still holds the value that matched (a password
 * changed meanwhile is left alone). Persistent searches are not told: the password did not change,
 * only its stored form. Thread-safe.
 */
public final class PasswordRehash {
    private final Directory directory;
    private final WriteQueue writes;
    private final PasswordHasher hasher;

    public PasswordRehash(Directory directory, WriteQueue writes, PasswordHasher hasher) {
        this.directory = directory;
        this.writes = writes;
        this.hasher = hasher;
    }

    /** A hash of {@code presented} in the configured scheme. Hashes: call on a worker thread. */
    byte[] hash(byte[] presented) {
        return hasher.hash(presented);
    }

    /** Queues the replacement of {@code old} by {@code fresh} in the {@code userPassword} of {@code dn}. */
    void store(Dn dn, byte[] old, byte[] fresh) {
        writes.submitInternal("re-hash of the password of " + dn.getName(), txn -> replace(txn, dn, old, fresh));
    }

    /** On the writer thread. */
    private void replace(WriteTxn txn, Dn dn, byte[] old, byte[] fresh) {
        long id = directory.resolve(txn, dn);
        if (id == ReadTxn.NOT_FOUND) {
            return;
        }
        StoredEntry before = directory.load(txn, id);
        Entry entry = directory.schemaNormalizer().toEntry(before);
        Attribute passwords = entry.get(PasswordAttributes.USER_PASSWORD_OID);
        if (passwords == null || !passwords.contains(old)) {
            return;
        }
        try {
            passwords.remove(old);
            passwords.add(fresh);
        } catch (LdapException e) {
            throw new IllegalStateException("cannot re-hash the password of " + dn.getName(), e);
        }
        directory.replaceUntold(txn, before, entry);
    }
}
