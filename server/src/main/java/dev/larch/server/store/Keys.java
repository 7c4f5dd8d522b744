package dev.larch.server.store;

import java.nio.ByteBuffer;

/**
 * Encodings of LMDB keys and values.
 *
 * <p>Entry IDs are 8-byte big-endian longs so that LMDB's byte order is numeric order: index
 * duplicates come back as sorted ID lists and the entries database is scanned in ID order.
 */
public final class Keys {
    /** The parent ID of a naming context's root entry. */
    public static final long NO_PARENT = 0L;
    /** LMDB's default maximum key size; keys are cut to stay below it. */
    public static final int MAX_KEY_BYTES = 511;

    private Keys() {}

    /** Writes {@code id} into a reusable 8-byte direct buffer and returns it. */
    static ByteBuffer id(ByteBuffer reuse, long id) {
        reuse.clear();
        reuse.putLong(0, id);
        return reuse;
    }

    /** The DN-index key of a child, its parent's ID then its normalized RDN, in a reusable buffer. */
    static ByteBuffer child(ByteBuffer reuse, long parentId, byte[] normalizedRdn) {
        if (normalizedRdn.length + 8 > MAX_KEY_BYTES) {
            throw new StoreException("RDN longer than " + (MAX_KEY_BYTES - 8) + " bytes once normalized");
        }
        reuse.clear();
        reuse.putLong(parentId).put(normalizedRdn).flip();
        return reuse;
    }

    /** Writes {@code bytes}, cut to the maximum key size, into a reusable direct buffer. */
    static ByteBuffer indexKey(ByteBuffer reuse, byte[] bytes) {
        reuse.clear();
        if (bytes.length == 0) {
            reuse.put((byte) 0); // LMDB keys cannot be empty; an empty value gets a one-byte key
        } else {
            reuse.put(bytes, 0, Math.min(bytes.length, MAX_KEY_BYTES));
        }
        reuse.flip();
        return reuse;
    }

    static ByteBuffer direct(byte[] bytes) {
        ByteBuffer b = ByteBuffer.allocateDirect(bytes.length);
        b.put(bytes).flip();
        return b;
    }

    static long readId(ByteBuffer b) {
        return b.getLong(b.position());
    }

    static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }
}
