package dev.larch.server.store;

import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Key comparison as LMDB orders keys: unsigned bytes, a prefix before its extensions. */
class KeyRangeTest {
    private static ByteBuffer b(int... bytes) {
        ByteBuffer out = ByteBuffer.allocateDirect(bytes.length);
        for (int x : bytes) {
            out.put((byte) x);
        }
        return out.flip();
    }

    @Test
    void bytesCompareUnsignedAndAPrefixSortsFirst() {
        assertTrue(KeyRange.compare(b(0x7f), b(0x80)) < 0);
        assertTrue(KeyRange.compare(b(0xff), b(0x01, 0x00)) > 0);
        assertTrue(KeyRange.compare(b(1, 2), b(1, 2, 0)) < 0);
        assertEquals(0, KeyRange.compare(b(1, 2), ByteBuffer.wrap(new byte[] {1, 2})));
        assertTrue(KeyRange.compare(b(1), b()) > 0);
    }

    @Test
    void aRangeAdmitsKeysWithItsPrefixUpToItsLastKey() {
        KeyRange range = new KeyRange(null, false, b(1), b(1, 5));
        assertTrue(range.admits(b(1)));
        assertTrue(range.admits(b(1, 5)));
        assertFalse(range.admits(b(1, 5, 0)));
        assertFalse(range.admits(b(2)));
        assertFalse(range.admits(b()));
        assertTrue(KeyRange.all().admits(b(0xff, 0xff)));
    }

    @Test
    void thePrefixTestReadsFromTheKeysPosition() {
        ByteBuffer key = b(9, 1, 2, 3);
        key.position(1);
        assertTrue(KeyRange.startsWith(key, b(1, 2)));
        assertFalse(KeyRange.startsWith(key, b(9, 1)));
        assertTrue(KeyRange.startsWith(key, b()));
    }
}
