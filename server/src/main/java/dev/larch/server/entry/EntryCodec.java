package dev.larch.server.entry;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.directory.api.ldap.model.entry.Attribute;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.entry.Value;

/**
 * The binary form of an entry in the {@code entries} database.
 *
 * <pre>
 * version:u8 parentId:i64 dn:str attributeCount:varint
 *   { oid:str userId:str valueCount:varint { value:bytes normalized:(varint 0 = same as value | len+1, bytes) } }
 * str and bytes are a varint length followed by that many bytes (strings in UTF-8).
 * </pre>
 *
 * Normalized values are stored rather than recomputed on every read because search verifies every
 * candidate against its filter; a value whose normalized form is itself costs one byte extra.
 */
public final class EntryCodec {
    private static final int VERSION = 1;

    private EntryCodec() {
    }

    /** Serializes a schema-aware entry (every attribute must have its attribute type). */
    public static byte[] encode(long parentId, Entry entry) {
        Out out = new Out(512);
        out.u8(VERSION);
        out.i64(parentId);
        out.str(entry.getDn().getName());
        out.varint(entry.size());
        for (Attribute attribute : entry) {
            out.str(attribute.getAttributeType().getOid());
            out.str(attribute.getUpId());
            out.varint(attribute.size());
            boolean humanReadable = attribute.isHumanReadable();
            for (Value value : attribute) {
                byte[] user = humanReadable ? value.getString().getBytes(UTF_8) : value.getBytes();
                out.bytes(user);
                byte[] norm = humanReadable && value.getNormalized() != null
                        ? value.getNormalized().getBytes(UTF_8)
                        : user;
                if (Arrays.equals(norm, user)) {
                    out.varint(0);
                } else {
                    out.varint(norm.length + 1);
                    out.raw(norm);
                }
            }
        }
        return out.toByteArray();
    }

    /** Decodes an entry read from the store; the buffer's position is not moved. */
    public static StoredEntry decode(long id, ByteBuffer buffer) {
        In in = new In(buffer.duplicate());
        int version = in.u8();
        if (version != VERSION) {
            throw new IllegalStateException("entry " + id + " has unknown format version " + version);
        }
        long parentId = in.i64();
        String dn = in.str();
        int count = in.varint();
        List<StoredAttribute> attributes = new ArrayList<>(count);
        for (int a = 0; a < count; a++) {
            String oid = in.str();
            String userId = in.str();
            int n = in.varint();
            byte[][] values = new byte[n][];
            byte[][] normalized = new byte[n][];
            for (int v = 0; v < n; v++) {
                values[v] = in.bytes();
                int normTag = in.varint();
                normalized[v] = normTag == 0 ? values[v] : in.raw(normTag - 1);
            }
            attributes.add(new StoredAttribute(oid, userId, values, normalized));
        }
        return new StoredEntry(id, parentId, dn, List.copyOf(attributes));
    }

    /** Reads only the parent ID, for scope checks that need nothing else. */
    public static long parentId(ByteBuffer buffer) {
        return buffer.getLong(buffer.position() + 1);
    }

    private static final class Out {
        private byte[] buf;
        private int len;

        Out(int capacity) {
            buf = new byte[capacity];
        }

        private void ensure(int extra) {
            if (len + extra > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + extra));
            }
        }

        void u8(int v) {
            ensure(1);
            buf[len++] = (byte) v;
        }

        void i64(long v) {
            ensure(8);
            for (int shift = 56; shift >= 0; shift -= 8) {
                buf[len++] = (byte) (v >>> shift);
            }
        }

        void varint(int v) {
            ensure(5);
            while ((v & ~0x7F) != 0) {
                buf[len++] = (byte) ((v & 0x7F) | 0x80);
                v >>>= 7;
            }
            buf[len++] = (byte) v;
        }

        void raw(byte[] b) {
            ensure(b.length);
            System.arraycopy(b, 0, buf, len, b.length);
            len += b.length;
        }

        void bytes(byte[] b) {
            varint(b.length);
            raw(b);
        }

        void str(String s) {
            bytes(s.getBytes(UTF_8));
        }

        byte[] toByteArray() {
            return Arrays.copyOf(buf, len);
        }
    }

    private static final class In {
        private final ByteBuffer b;

        In(ByteBuffer b) {
            this.b = b;
        }

        int u8() {
            return Byte.toUnsignedInt(b.get());
        }

        long i64() {
            return b.getLong();
        }

        int varint() {
            int value = 0;
            for (int shift = 0; shift < 35; shift += 7) {
                int next = b.get();
                value |= (next & 0x7F) << shift;
                if ((next & 0x80) == 0) {
                    return value;
                }
            }
            throw new IllegalStateException("malformed varint in stored entry");
        }

        byte[] raw(int n) {
            byte[] out = new byte[n];
            b.get(out);
            return out;
        }

        byte[] bytes() {
            return raw(varint());
        }

        String str() {
            return new String(bytes(), UTF_8);
        }
    }
}
