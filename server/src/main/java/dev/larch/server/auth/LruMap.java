package dev.larch.server.auth;

import java.io.Serial;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A map that holds at most {@code capacity} entries, forgetting the least recently used one to make
 * room. Not thread-safe: its owner guards it.
 */
final class LruMap<K, V> extends LinkedHashMap<K, V> {
    @Serial
    private static final long serialVersionUID = 1L;

    private final int capacity;

    LruMap(int capacity) {
        super(16, 0.75f, true);
        this.capacity = capacity;
    }

    @Override
    protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
        return size() > capacity;
    }
}
