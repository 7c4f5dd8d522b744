package dev.larch.server.directory;

import java.io.IOException;
import java.io.ObjectInput;
import java.io.UncheckedIOException;

import org.apache.directory.api.ldap.model.entry.Value;
import org.apache.directory.api.ldap.model.schema.AttributeType;

/**
 * Schema-aware values of a stored entry, built without the syntax check the API's constructors run.
 * A stored value was checked when it was written; checking it again each time an entry is turned
 * into an API {@code Entry} (every modify, rename and policy-state write) parsed every DN-syntax
 * value twice and ran a regular expression per telephone number or timestamp: 12% of the writer
 * thread's CPU under the modify mix, with the normalization the other large part.
 *
 * <p>The API offers one way to build a value from parts without checking it: deserialization. This
 * feeds {@link Value#deserialize(AttributeType, ObjectInput)} the fields of a human-readable value
 * (flag, user bytes, normalized form) through a minimal {@link ObjectInput}; {@code
 * StoredValuesTest} holds each value so built equal, field by field, to the checked constructor's.
 *
 * <p>Not thread-safe per instance; {@link #humanReadable} makes one per value.
 */
final class StoredValues {
    private StoredValues() {}

    /**
     * A human-readable value of {@code type} with the user form {@code userBytes} (UTF-8) and the
     * normalized form {@code normalized}, as stored.
     */
    static Value humanReadable(AttributeType type, byte[] userBytes, String normalized) {
        try {
            return Value.deserialize(type, new Fields(userBytes, normalized));
        } catch (IOException | ClassNotFoundException e) {
            throw new UncheckedIOException(new IOException("could not build a stored value of " + type.getName(), e));
        }
    }

    /** The fields {@code Value.readExternal} reads for a human-readable value, in its order. */
    private static final class Fields implements ObjectInput {
        private final byte[] userBytes;
        private final String normalized;
        /** Booleans read so far: is human-readable, has a user value, has a normalized value. */
        private int booleans;

        Fields(byte[] userBytes, String normalized) {
            this.userBytes = userBytes;
            this.normalized = normalized;
        }

        @Override
        public boolean readBoolean() throws IOException {
            return switch (booleans++) {
                case 0, 1 -> true;
                case 2 -> normalized != null;
                default -> throw unexpected("a fourth boolean");
            };
        }

        @Override
        public int readInt() {
            return userBytes.length;
        }

        @Override
        public void readFully(byte[] b) throws IOException {
            if (b.length != userBytes.length) {
                throw unexpected("a read of " + b.length + " bytes");
            }
            System.arraycopy(userBytes, 0, b, 0, b.length);
        }

        @Override
        public String readUTF() {
            return normalized;
        }

        private static IOException unexpected(String what) {
            return new IOException(
                    "Value.readExternal asked for " + what + ": this API version reads values differently");
        }

        @Override
        public Object readObject() throws IOException {
            throw unexpected("an object");
        }

        @Override
        public int read() throws IOException {
            throw unexpected("a byte");
        }

        @Override
        public int read(byte[] b) throws IOException {
            throw unexpected("bytes");
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            throw unexpected("bytes");
        }

        @Override
        public long skip(long n) throws IOException {
            throw unexpected("a skip");
        }

        @Override
        public int available() {
            return 0;
        }

        @Override
        public void close() {}

        @Override
        public void readFully(byte[] b, int off, int len) throws IOException {
            throw unexpected("a partial read");
        }

        @Override
        public int skipBytes(int n) throws IOException {
            throw unexpected("a skip");
        }

        @Override
        public byte readByte() throws IOException {
            throw unexpected("a byte");
        }

        @Override
        public int readUnsignedByte() throws IOException {
            throw unexpected("a byte");
        }

        @Override
        public short readShort() throws IOException {
            throw unexpected("a short");
        }

        @Override
        public int readUnsignedShort() throws IOException {
            throw unexpected("a short");
        }

        @Override
        public char readChar() throws IOException {
            throw unexpected("a char");
        }

        @Override
        public long readLong() throws IOException {
            throw unexpected("a long");
        }

        @Override
        public float readFloat() throws IOException {
            throw unexpected("a float");
        }

        @Override
        public double readDouble() throws IOException {
            throw unexpected("a double");
        }

        @Override
        public String readLine() throws IOException {
            throw unexpected("a line");
        }
    }
}
