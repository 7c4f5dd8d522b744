package dev.larch.server.auth.policy;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.store.ReadTxn;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.name.Dn;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Password policies read from the directory and kept parsed, at most {@value #CAPACITY} (the least
 * recently used forgotten first). A DN that names no {@code pwdPolicy} entry is remembered as "no
 * policy" too, so a hostile entry pointing at a missing DN costs one lookup, not one per bind.
 *
 * <p>Writers call {@link #invalidate} after the commit of any change to an entry; a reader that
 * started before that commit cannot put its stale copy back, because every load is tagged with the
 * generation it started in and only stored if no invalidation happened meanwhile.
 *
 * <p>Thread-safe.
 */
public final class PolicyCache {
    private static final Logger LOG = LoggerFactory.getLogger(PolicyCache.class);
    static final int CAPACITY = 256;

    private final Directory directory;
    private final AtomicLong generation = new AtomicLong();
    private final Map<String, Optional<PasswordPolicy>> policies = new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Optional<PasswordPolicy>> eldest) {
            return size() > CAPACITY;
        }
    };

    public PolicyCache(Directory directory) {
        this.directory = directory;
    }

    /** The policy held by the entry {@code dn}, read in {@code txn} unless cached; empty when none. */
    public Optional<PasswordPolicy> get(ReadTxn txn, Dn dn) {
        String key = dn.getNormName();
        long started = generation.get();
        synchronized (policies) {
            Optional<PasswordPolicy> cached = policies.get(key);
            if (cached != null) {
                return cached;
            }
        }
        Optional<PasswordPolicy> loaded = load(txn, dn);
        synchronized (policies) {
            if (generation.get() == started) {
                policies.put(key, loaded);
            }
        }
        return loaded;
    }

    /** Forgets {@code dn}; call after a write to that entry committed. */
    public void invalidate(Dn dn) {
        synchronized (policies) {
            generation.incrementAndGet();
            policies.remove(dn.getNormName());
        }
    }

    /** Forgets every policy (after a rename, which may move any number of them). */
    public void invalidateAll() {
        synchronized (policies) {
            generation.incrementAndGet();
            policies.clear();
        }
    }

    private Optional<PasswordPolicy> load(ReadTxn txn, Dn dn) {
        long id = directory.resolve(txn, dn);
        StoredEntry stored = id == ReadTxn.NOT_FOUND ? null : directory.load(txn, id);
        if (stored == null) {
            LOG.warn("password policy {} does not exist; entries naming it are not governed", dn.getName());
            return Optional.empty();
        }
        Entry entry = directory.schemaNormalizer().toEntry(stored);
        if (!PasswordPolicy.isPolicy(entry)) {
            LOG.warn("{} is not a pwdPolicy entry; entries naming it are not governed", dn.getName());
            return Optional.empty();
        }
        return Optional.of(PasswordPolicy.from(entry));
    }
}
