package dev.larch.server.bulk;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A sorted run spilled to a file: the records of one {@link KeyIdRecords}, in order, each as
 * {@code keyLength:u16 key id:i64}, with nothing else (the reader stops at the end of the file).
 */
final class RunFile {
    private static final int BUFFER = 1 << 16;

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
        return new Writer(new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file), BUFFER)));
    }

    /** Appends records to a run file; close it to flush. */
    static final class Writer implements AutoCloseable {
        private final DataOutputStream out;

        private Writer(DataOutputStream out) {
            this.out = out;
        }

        void write(byte[] key, int offset, int length, long id) throws IOException {
            out.writeShort(length);
            out.write(key, offset, length);
            out.writeLong(id);
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }

    /** A cursor reading {@code file} back; close it to release the file. */
    static KeyIdCursor read(Path file) throws IOException {
        DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), BUFFER));
        return new KeyIdCursor() {
            private byte[] key = new byte[64];
            private int length;
            private long id;

            @Override
            public boolean next() throws IOException {
                int high = in.read();
                if (high < 0) {
                    return false;
                }
                int low = in.read();
                if (low < 0) {
                    throw new EOFException("run file " + file + " ends inside a record");
                }
                length = (high << 8) | low;
                if (key.length < length) {
                    key = new byte[Math.max(length, 2 * key.length)];
                }
                in.readFully(key, 0, length);
                id = in.readLong();
                return true;
            }

            @Override
            public byte[] keyArray() {
                return key;
            }

            @Override
            public int keyOffset() {
                return 0;
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
