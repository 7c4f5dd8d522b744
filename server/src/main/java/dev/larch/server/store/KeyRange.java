package dev.larch.server.store;

import java.nio.ByteBuffer;

/**
 * Which keys of a {@link Tree} a {@link RangeCursor} visits, in key order: from {@code start}
 * (inclusive, or exclusive when {@code startExclusive}; null for the tree's first key), while a key
 * starts with {@code prefix} (null for no such bound) and is at most {@code last} (inclusive; null
 * for no such bound). Keys compare as unsigned bytes, LMDB's default order.
 *
 * <p>The buffers are read from position to limit and must not change while a cursor uses them.
 */
record KeyRange(ByteBuffer start, boolean startExclusive, ByteBuffer prefix, ByteBuffer last) {
    /** Every key of the tree. */
    static KeyRange all() {
        return new KeyRange(null, false, null, null);
    }

    /** The keys that start with {@code prefix}. */
    static KeyRange prefix(ByteBuffer prefix) {
        return new KeyRange(prefix, false, prefix, null);
    }

    /** The keys that start with {@code prefix} and sort after {@code after} (itself excluded). */
    static KeyRange prefixAfter(ByteBuffer prefix, ByteBuffer after) {
        return new KeyRange(after, true, prefix, null);
    }

    /** Whether {@code key} lies below the range's end: has its prefix and is at most its last key. */
    boolean admits(ByteBuffer key) {
        return (prefix == null || startsWith(key, prefix)) && (last == null || compare(key, last) <= 0);
    }

    /** Whether {@code key}'s remaining bytes begin with {@code prefix}'s (a byte loop: no slice per key). */
    static boolean startsWith(ByteBuffer key, ByteBuffer prefix) {
        int n = prefix.remaining();
        if (key.remaining() < n) {
            return false;
        }
        int k = key.position();
        int p = prefix.position();
        for (int i = 0; i < n; i++) {
            if (key.get(k + i) != prefix.get(p + i)) {
                return false;
            }
        }
        return true;
    }

    /** Unsigned lexicographic comparison of the remaining bytes, LMDB's default key order. */
    static int compare(ByteBuffer a, ByteBuffer b) {
        int m = a.mismatch(b);
        if (m < 0) {
            return 0;
        }
        if (m >= a.remaining() || m >= b.remaining()) {
            return a.remaining() - b.remaining();
        }
        return Byte.toUnsignedInt(a.get(a.position() + m)) - Byte.toUnsignedInt(b.get(b.position() + m));
    }
}
