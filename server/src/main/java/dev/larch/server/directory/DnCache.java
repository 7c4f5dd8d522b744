package dev.larch.server.directory;

import java.util.concurrent.ConcurrentHashMap;

import org.apache.directory.api.ldap.model.name.Dn;

/**
 * Parsed DNs by the exact string a client sent, bounded in (estimated) bytes rather than entries, so
 * that clients sending many long distinct DNs cannot grow it past {@link #maxBytes()}. DNs longer
 * than {@link #MAX_CACHED_CHARS} are never cached: they are rare, and one would evict many short ones.
 * When an insert would exceed the budget the cache is emptied first: the working set of search bases
 * is small and refills at once, and this keeps the hit path a single map lookup.
 *
 * <p>Thread-safe. {@link #get} takes no lock and allocates nothing; {@link #put} (a miss, after a
 * parse that costs far more) serializes on the cache so the byte count stays exact.
 */
final class DnCache {
    /** Longest DN string (in chars) that is cached. */
    static final int MAX_CACHED_CHARS = 1024;

    /**
     * Estimated bytes per char of the DN string: the key (up to 2 bytes per char) plus the parsed
     * Dn, which keeps the user-provided and normalized forms of the whole DN and of each RDN, AVA,
     * type and value (about six copies of the text, up to 2 bytes per char each).
     */
    static final int BYTES_PER_CHAR = 14;

    /** Estimated fixed bytes per cached DN: map node, key and Dn objects, RDN and AVA lists. */
    static final int BYTES_PER_ENTRY = 320;

    private final long maxBytes;
    private final ConcurrentHashMap<String, Dn> dns = new ConcurrentHashMap<>();
    private long bytes;

    /** @param maxBytes the estimated-size budget; 0 disables the cache */
    DnCache(long maxBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes < 0: " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    /** The cached parse of exactly {@code name}, or null. */
    Dn get(String name) {
        return dns.get(name);
    }

    /** Remembers {@code dn} as the parse of {@code name} if it is small enough to cache. */
    void put(String name, Dn dn) {
        if (name.length() > MAX_CACHED_CHARS) {
            return;
        }
        long cost = estimatedBytes(name);
        if (cost > maxBytes) {
            return;
        }
        synchronized (this) {
            if (bytes + cost > maxBytes) {
                dns.clear();
                bytes = 0;
            }
            if (dns.putIfAbsent(name, dn) == null) {
                bytes += cost;
            }
        }
    }

    /** The estimated bytes the cached DNs take; never above {@link #maxBytes()}. */
    synchronized long estimatedBytes() {
        return bytes;
    }

    long maxBytes() {
        return maxBytes;
    }

    int size() {
        return dns.size();
    }

    static long estimatedBytes(String name) {
        return BYTES_PER_ENTRY + (long) BYTES_PER_CHAR * name.length();
    }
}
