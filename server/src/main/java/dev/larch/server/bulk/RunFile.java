package dev.larch.server.bulk;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A sorted run spilled to a file: the records of one {@link KeyIdRecords}, in order, each as
 * {@code keyLength:u16 key id:i64}, with nothing else (the reader stops at the end of the file).
 */
final class RunFile {
    private static final int BUFFER = 1 << 16;
    /** IDs are written big-endian. */
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private RunFile() {}

    /** Writes every record {@code records} yields to a new file {@code file}; returns how many. */
    static long write(KeyIdCursor records, Path file) throws IOException {
        long n = 0;
        try (Writer out = writer(file)) {
            while (records.next()) {
                out.write(records.keyArray(), records.keyOffset(), records.keyLength(), records.id());
                n++;
            }
        }
        return n;
    }

    /** A writer of records, given in order, to a new file {@code file}. */
    static Writer writer(Path file) throws IOException {
        return new Writer(Files.newOutputStream(file));
    }

    /**
     * Appends records to a run file; close it to flush. Records are laid out in its own buffer and
     * written a buffer at a time: through a DataOutputStream, three calls per record (length, key,
     * ID) into a BufferedOutputStream took 14% of a verify's entry pass (JFR, 1,010,007 entries).
     */
    static final class Writer implements AutoCloseable {
        private final OutputStream out;
        private final byte[] buffer = new byte[BUFFER];
        private int used;

        private Writer(OutputStream out) {
            this.out = out;
        }

        void write(byte[] key, int offset, int length, long id) throws IOException {
            int need = 2 + length + Long.BYTES;
            if (used + need > buffer.length) {
                flush();
                if (need > buffer.length) {
                    writeLarge(key, offset, length, id);
                    return;
                }
            }
            buffer[used] = (byte) (length >>> 8);
            buffer[used + 1] = (byte) length;
            System.arraycopy(key, offset, buffer, used + 2, length);
            LONG.set(buffer, used + 2 + length, id);
            used += need;
        }

        /** A record longer than the buffer (a key near 64 KB), written as it is. */
        private void writeLarge(byte[] key, int offset, int length, long id) throws IOException {
            out.write(length >>> 8);
            out.write(length);
            out.write(key, offset, length);
            byte[] idBytes = new byte[Long.BYTES];
            LONG.set(idBytes, 0, id);
            out.write(idBytes);
        }

        private void flush() throws IOException {
            out.write(buffer, 0, used);
            used = 0;
        }

        @Override
        public void close() throws IOException {
            try (out) {
                flush();
            }
        }
    }

    /**
     * A cursor reading {@code file} back; close it to release the file. Reads a buffer at a time
     * and takes records out of it itself, for the reason the writer does (DataInputStream's calls
     * per record were a quarter of a verify's index pass, JFR).
     */
    static KeyIdCursor read(Path file) throws IOException {
        InputStream in = Files.newInputStream(file);
        return new KeyIdCursor() {
            private final byte[] buffer = new byte[BUFFER];
            private int at;
            private int end;
            private int keyOffset;
            private int length;
            private long id;
            // The key of a record that does not fit the buffer, else null.
            private byte[] large;

            @Override
            public boolean next() throws IOException {
                if (!fill(2)) {
                    if (at == end) {
                        return false;
                    }
                    throw new EOFException("run file " + file + " ends inside a record");
                }
                length = ((buffer[at] & 0xFF) << 8) | (buffer[at + 1] & 0xFF);
                int need = 2 + length + Long.BYTES;
                if (need > buffer.length) {
                    return nextLarge();
                }
                if (!fill(need)) {
                    throw new EOFException("run file " + file + " ends inside a record");
                }
                large = null;
                keyOffset = at + 2;
                id = (long) LONG.get(buffer, at + 2 + length);
                at += need;
                return true;
            }

            // A record longer than the buffer: its length is at the cursor, the rest is read directly.
            private boolean nextLarge() throws IOException {
                at += 2;
                large = new byte[length + Long.BYTES];
                int have = Math.min(end - at, large.length);
                System.arraycopy(buffer, at, large, 0, have);
                at += have;
                if (in.readNBytes(large, have, large.length - have) != large.length - have) {
                    throw new EOFException("run file " + file + " ends inside a record");
                }
                keyOffset = 0;
                id = (long) LONG.get(large, length);
                return true;
            }

            // Whether n bytes from the cursor are in the buffer, after reading more if needed.
            private boolean fill(int n) throws IOException {
                if (end - at >= n) {
                    return true;
                }
                System.arraycopy(buffer, at, buffer, 0, end - at);
                end -= at;
                at = 0;
                while (end < n) {
                    int read = in.read(buffer, end, buffer.length - end);
                    if (read < 0) {
                        return false;
                    }
                    end += read;
                }
                return true;
            }

            @Override
            public byte[] keyArray() {
                return large != null ? large : buffer;
            }

            @Override
            public int keyOffset() {
                return keyOffset;
            }

            @Override
            public int keyLength() {
                return length;
            }

            @Override
            public long id() {
                return id;
            }

            @Override
            public void close() throws IOException {
                in.close();
            }
        };
    }
}
