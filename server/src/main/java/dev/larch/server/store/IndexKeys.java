package dev.larch.server.store;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.larch.config.IndexKind;

/**
 * The key format of the {@linkplain AttributeIndex attribute indexes}: which keys a normalized
 * value contributes to an index of each kind, and how a key is stored. The same functions build
 * keys at write time and lookup keys at search time, so the two can never disagree.
 *
 * <p>Per kind: equality, {@link #equalityKey} (the normalized value; a DN's with its RDNs reversed,
 * {@link DnKeys}); presence, the single key {@link #PRESENCE_KEY};
 * substring, the distinct {@value #GRAM}-byte grams of the value framed by {@link #START} and {@link
 * #END}; ordering, {@link #orderingKey}. Stored, a key is cut to {@link #MAX_KEY_BYTES} (so a longer
 * equality key stands for every value sharing its first bytes, and a match needs checking), and an
 * empty key becomes the single byte 0, since LMDB keys cannot be empty.
 */
public final class IndexKeys {
    /** Marks the start of a value in substring grams, so grams can anchor an initial substring. */
    static final byte START = 0x02;
    /** Marks the end of a value in substring grams, so grams can anchor a final substring. */
    static final byte END = 0x03;

    public static final int GRAM = 3;
    /** The single key under which the presence index lists an attribute's holders. */
    @SuppressWarnings("MutablePublicArray") // read-only by contract: a copy per lookup would allocate on the hot path
    public static final byte[] PRESENCE_KEY = {1};

    /** The longest key an index stores (LMDB's limit); longer keys are cut to it. */
    public static final int MAX_KEY_BYTES = Tree.MAX_KEY_BYTES;

    private static final String INTEGER_SYNTAX = "1.3.6.1.4.1.1466.115.121.1.27";

    private IndexKeys() {}

    /**
     * Every key one normalized value contributes to an index of {@code kind}.
     *
     * @param syntaxOid the attribute's syntax, which decides the ordering encoding
     */
    public static List<byte[]> keys(IndexKind kind, byte[] normalized, String syntaxOid) {
        return switch (kind) {
            case EQUALITY -> List.of(equalityKey(normalized, syntaxOid));
            case PRESENCE -> List.of(PRESENCE_KEY);
            case SUBSTRING -> grams(normalized, true, true);
            case ORDERING -> List.of(orderingKey(normalized, syntaxOid));
        };
    }

    /**
     * The equality key of one normalized value of an attribute of {@code syntaxOid} (null for
     * unknown): the value itself, or for a DN-valued attribute the DN with its RDNs reversed ({@link
     * DnKeys}), so that the values naming entries below one root are one key range. Of the same
     * length as the value either way.
     */
    public static byte[] equalityKey(byte[] normalized, String syntaxOid) {
        return DnKeys.reverses(syntaxOid) ? DnKeys.reverse(normalized) : normalized;
    }

    /**
     * The distinct three-byte grams of {@code piece}, with the start marker in front when it is an
     * initial substring and the end marker behind when it is a final one. Byte grams of UTF-8 are
     * sound for containment: a substring's bytes are a byte-substring of the value's bytes.
     */
    public static List<byte[]> grams(byte[] piece, boolean anchoredStart, boolean anchoredEnd) {
        int n = piece.length + (anchoredStart ? 1 : 0) + (anchoredEnd ? 1 : 0);
        byte[] framed = new byte[n];
        int o = 0;
        if (anchoredStart) {
            framed[o++] = START;
        }
        System.arraycopy(piece, 0, framed, o, piece.length);
        if (anchoredEnd) {
            framed[n - 1] = END;
        }
        if (n < GRAM) {
            return List.of();
        }
        Set<Key> distinct = new LinkedHashSet<>();
        for (int i = 0; i + GRAM <= n; i++) {
            distinct.add(new Key(Arrays.copyOfRange(framed, i, i + GRAM)));
        }
        List<byte[]> out = new ArrayList<>(distinct.size());
        for (Key k : distinct) {
            out.add(k.bytes());
        }
        return out;
    }

    /**
     * A key whose unsigned byte order is the value order: integers as sign, length and magnitude;
     * everything else as its normalized UTF-8, whose byte order is code-point order.
     */
    public static byte[] orderingKey(byte[] normalized, String syntaxOid) {
        if (!INTEGER_SYNTAX.equals(syntaxOid)) {
            return normalized;
        }
        BigInteger value;
        try {
            value = new BigInteger(new String(normalized, StandardCharsets.US_ASCII).trim());
        } catch (NumberFormatException e) {
            return normalized;
        }
        byte[] magnitude = value.abs().toByteArray();
        int len = magnitude.length;
        byte[] key = new byte[1 + 4 + len];
        boolean negative = value.signum() < 0;
        key[0] = (byte) (negative ? 0x00 : 0x01);
        // Longer magnitudes are larger when positive and smaller when negative.
        int encodedLen = negative ? ~len : len;
        key[1] = (byte) (encodedLen >>> 24);
        key[2] = (byte) (encodedLen >>> 16);
        key[3] = (byte) (encodedLen >>> 8);
        key[4] = (byte) encodedLen;
        for (int i = 0; i < len; i++) {
            key[5 + i] = (byte) (negative ? ~magnitude[i] : magnitude[i]);
        }
        return key;
    }

    /**
     * The stored form of {@code key} in {@code reuse} (a direct buffer of at least {@link
     * #MAX_KEY_BYTES}): cut to that size, an empty key as the single byte 0.
     */
    static ByteBuffer stored(ByteBuffer reuse, byte[] key) {
        reuse.clear();
        if (key.length == 0) {
            reuse.put((byte) 0);
        } else {
            reuse.put(key, 0, Math.min(key.length, MAX_KEY_BYTES));
        }
        reuse.flip();
        return reuse;
    }

    /**
     * The stored form of {@code key} as an array: {@code key} itself when it is stored as is, else
     * cut to {@link #MAX_KEY_BYTES} or, empty, the single byte 0 ({@link #stored} in bytes). Bulk
     * loads sort keys in this form, as LMDB will hold them.
     */
    public static byte[] storedForm(byte[] key) {
        if (key.length == 0) {
            return new byte[] {0};
        }
        return key.length <= MAX_KEY_BYTES ? key : Arrays.copyOf(key, MAX_KEY_BYTES);
    }

    /** {@code key} as a stored key is compared: its first {@link #MAX_KEY_BYTES} bytes, in a new buffer. */
    static ByteBuffer cut(byte[] key) {
        return ByteBuffer.wrap(key, 0, Math.min(key.length, MAX_KEY_BYTES)).slice();
    }

    /** An index key with value equality, for sets of keys. */
    public record Key(byte[] bytes) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Arrays.equals(bytes, k.bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }
    }
}
