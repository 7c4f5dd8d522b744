package dev.larch.server.entry;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;

import org.apache.directory.api.ldap.model.entry.Attribute;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.entry.Value;
import org.apache.directory.api.ldap.model.name.Dn;
import org.apache.directory.api.ldap.model.schema.AttributeType;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * The binary form of an entry in the {@code entries} database.
 *
 * <pre>
 * version:u8(3) parentId:i64 name:str attributeCount:varint
 *   { attributeId:varint name:(varint 0 = the type's primary name | len+1, bytes) valueCount:varint { value:bytes } }
 * str and bytes are a varint length followed by that many bytes (strings in UTF-8).
 * </pre>
 *
 * <p>{@code name} is the entry's own RDN as the client gave it, or, for a naming context's root
 * (parent ID {@link #NO_PARENT}), its whole DN. No entry stores its full DN: it is its name, a
 * comma and its parent's DN, rebuilt from the parent chain when read ({@link #decode}'s {@code
 * parentDn}). So a rename rewrites the renamed entry alone, never its descendants (format 3; format
 * 2 stored the full DN in every entry). The parent ID and the name sit at fixed places, so {@link
 * #parentId} and {@link #name} read them without decoding the attributes.
 *
 * <p>Attribute types are numbered through the {@link AttributeCatalog} rather than spelled as OIDs,
 * and normalized values are not stored but computed when a filter needs them: together that keeps
 * a typical inetOrgPerson under a kilobyte, so several share one LMDB page instead of each taking
 * an overflow page of its own.
 *
 * <p>Thread-safe.
 */
public final class EntryCodec {
    private static final int VERSION = 3;
    /** The parent ID of a naming context's root ({@code dev.larch.server.store.DnTree#NO_PARENT}). */
    public static final long NO_PARENT = 0L;

    private final AttributeCatalog catalog;

    public EntryCodec(AttributeCatalog catalog) {
        this.catalog = catalog;
    }

    /**
     * Serializes a schema-aware entry (every attribute must have its attribute type) stored under
     * {@code parentId}: of its DN only the leaf RDN is kept, or the whole DN when {@code parentId} is
     * {@link #NO_PARENT}.
     */
    public byte[] encode(long parentId, Entry entry) {
        Out out = new Out(1024);
        out.u8(VERSION);
        out.i64(parentId);
        out.str(storedName(parentId, entry.getDn()));
        int stored = 0;
        for (Attribute attribute : entry) {
            stored += attribute.size() > 0 ? 1 : 0;
        }
        out.varint(stored);
        for (Attribute attribute : entry) {
            if (attribute.size() == 0) {
                continue; // an attribute has at least one value (X.501); see encode(long, String, List)
            }
            AttributeType type = attribute.getAttributeType();
            out.varint(catalog.id(type.getOid()));
            description(out, attribute.getUpId(), type);
            out.varint(attribute.size());
            for (Value value : attribute) {
                out.bytes(userBytes(attribute, value));
            }
        }
        return out.toByteArray();
    }

    /**
     * Serializes a stored entry's attributes as {@link #encode(long, Entry)} serializes its API form,
     * without building that form: {@code name} is what {@link #storedName} keeps of its DN. An
     * attribute whose type the schema no longer has is kept, under the description it was written with.
     */
    public byte[] encode(long parentId, String name, List<StoredAttribute> attributes) {
        Out out = new Out(1024);
        out.u8(VERSION);
        out.i64(parentId);
        out.str(name);
        int stored = 0;
        for (StoredAttribute attribute : attributes) {
            stored += attribute.size() > 0 ? 1 : 0;
        }
        out.varint(stored);
        for (StoredAttribute attribute : attributes) {
            if (attribute.size() == 0) {
                // An attribute has at least one value (X.501): one without is never stored, so that no
                // client or consumer is sent an empty value set (a slapd consumer crashes on one).
                continue;
            }
            out.varint(catalog.id(attribute.oid()));
            description(out, attribute.userId(), attribute.type());
            out.varint(attribute.size());
            for (byte[] value : attribute.values()) {
                out.bytes(value);
            }
        }
        return out.toByteArray();
    }

    /** The attribute description as written: nothing when it is the type's own name (the usual case). */
    private static void description(Out out, String description, AttributeType type) {
        if (type != null && description.equals(type.getName())) {
            out.varint(0);
        } else {
            byte[] b = description.getBytes(UTF_8);
            out.varint(b.length + 1);
            out.raw(b);
        }
    }

    /**
     * The stored view of a schema-aware entry without a round trip through bytes: the normalized
     * values the schema already computed are kept, so indexing a new entry normalizes nothing twice.
     */
    public static StoredEntry toStored(long id, long parentId, Entry entry) {
        return toStored(id, parentId, entry.getDn().getName(), entry);
    }

    /**
     * {@link #toStored(long, long, Entry)} with the DN the store gives the entry ({@link
     * #composeDn}: its RDN under its parent's DN as stored), which may spell the parent's part
     * differently from the entry's own DN.
     */
    public static StoredEntry toStored(long id, long parentId, String dn, Entry entry) {
        List<StoredAttribute> attributes = new ArrayList<>(entry.size());
        for (Attribute attribute : entry) {
            AttributeType type = attribute.getAttributeType();
            byte[][] values = new byte[attribute.size()][];
            byte[][] normalized = new byte[attribute.size()][];
            int i = 0;
            for (Value value : attribute) {
                values[i] = userBytes(attribute, value);
                normalized[i] = attribute.isHumanReadable() && value.getNormalized() != null
                        ? value.getNormalized().getBytes(UTF_8)
                        : values[i];
                i++;
            }
            attributes.add(new StoredAttribute(type.getOid(), attribute.getUpId(), values, type, normalized));
        }
        return new StoredEntry(id, parentId, dn, List.copyOf(attributes));
    }

    /** What {@link #encode} keeps of {@code dn} for an entry under {@code parentId}. */
    public static String storedName(long parentId, Dn dn) {
        return parentId == NO_PARENT ? dn.getName() : dn.getRdn().getName();
    }

    /**
     * The full DN of an entry with the stored {@code name} under a parent named {@code parentDn}
     * (null for a naming context's root, whose name is its DN).
     */
    public static String composeDn(String name, String parentDn) {
        return parentDn == null ? name : name + "," + parentDn;
    }

    /**
     * Decodes an entry read from the store into a copy of its bytes, which it keeps for as long as it
     * lives; the buffer's position is not moved.
     *
     * @param parentDn the DN of the entry's parent ({@link #parentId}) in the same state of the
     *     store, user form; null for a naming context's root
     * @throws IllegalStateException when the bytes are not an entry of this format, or when a parent
     *     DN is missing or given for a root
     */
    public StoredEntry decode(long id, ByteBuffer buffer, String parentDn) {
        // One copy of the whole entry, out of the transaction's memory: each attribute's values stay
        // in it until asked for, and most reads ask for a few attributes of a twenty.
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(buffer.position(), bytes);
        return decode(id, ByteBuffer.wrap(bytes), parentDn, EntryCodec::ownCopy);
    }

    /**
     * {@link #decode(long, ByteBuffer, String)} without the copy: the entry reads its attributes
     * straight from the memory {@code buffer} points into for as long as {@code readable} says that
     * memory still holds them (a read transaction's snapshot, until the transaction ends). Past that,
     * making an attribute or its values throws rather than reading whatever the memory then holds.
     * For reads whose entries are used up before their transaction ends (a search's candidates): a
     * copy of a kilobyte per entry was a third of a one-entry search's allocation. The buffer itself
     * may be moved afterwards (LMDB hands every read of a transaction back in the same buffer object).
     *
     * @throws IllegalStateException as {@link #decode(long, ByteBuffer, String)}
     */
    public StoredEntry decodeInPlace(long id, ByteBuffer buffer, String parentDn, BooleanSupplier readable) {
        return decode(id, buffer.slice(), parentDn, readable);
    }

    /** The readability of a decoded entry's own copy of its bytes: for as long as the entry lives. */
    private static boolean ownCopy() {
        return true;
    }

    /** Decodes the entry that fills {@code bytes} from index 0. */
    private StoredEntry decode(long id, ByteBuffer bytes, String parentDn, BooleanSupplier readable) {
        Cursor in = Cursor.walking(bytes);
        int version = in.u8();
        if (version != VERSION) {
            throw new IllegalStateException("entry " + id + " has unknown format version " + version);
        }
        long parentId = in.i64();
        if ((parentId == NO_PARENT) != (parentDn == null)) {
            throw new IllegalStateException("entry " + id + " has parent " + parentId + " but was decoded "
                    + (parentDn == null ? "without" : "with") + " a parent DN");
        }
        String dn = composeDn(in.str(), parentDn);
        int attributes = in.varint();
        // Each attribute's ID and where it starts, packed in an int when both fit a char (an entry
        // under 64 KiB, which is nearly every entry), half the bytes of longs; in longs past that.
        int[] small = new int[attributes];
        long[] large = null;
        for (int a = 0; a < attributes; a++) {
            int at = in.position();
            int attributeId = in.varint();
            catalog.oid(attributeId); // an ID the catalog does not know fails here, as a damaged entry
            if (large == null && (at > Character.MAX_VALUE || attributeId > Character.MAX_VALUE)) {
                large = new long[attributes];
                for (int before = 0; before < a; before++) {
                    large[before] = (long) (small[before] >>> 16) << 32 | (small[before] & 0xFFFF);
                }
            }
            if (large == null) {
                small[a] = attributeId << 16 | at;
            } else {
                large[a] = (long) attributeId << 32 | at;
            }
            int nameTag = in.varint();
            in.skip(nameTag == 0 ? 0 : nameTag - 1);
            int count = in.varint();
            for (int v = 0; v < count; v++) {
                in.skip(in.varint());
            }
        }
        in.endedInside();
        return new StoredEntry(
                id, parentId, dn, new DecodedAttributes(this, bytes, readable, large == null ? small : null, large));
    }

    /** The attribute whose record starts at {@code at} in a decoded entry's {@code bytes}. */
    StoredAttribute attribute(DecodedAttributes entry, ByteBuffer bytes, int at) {
        Cursor in = new Cursor(bytes, at);
        int attributeId = in.varint();
        String oid = catalog.oid(attributeId);
        AttributeType type = catalog.type(attributeId);
        int nameTag = in.varint();
        String name = nameTag == 0 ? (type == null ? oid : type.getName()) : in.str(nameTag - 1);
        int count = in.varint();
        return StoredAttribute.inEntry(oid, name, type, entry, in.position(), count);
    }

    /** The OID stored under attribute ID {@code id}. */
    String oid(int id) {
        return catalog.oid(id);
    }

    /** The schema's type stored under attribute ID {@code id}; null when the schema lacks it. */
    AttributeType type(int id) {
        return catalog.type(id);
    }

    /** The stored ID of the attribute type with this OID, or -1 when no stored entry can hold it. */
    int storedId(String oid) {
        return catalog.idOrAbsent(oid);
    }

    /**
     * The {@code count} values stored from {@code offset} in {@code entry} (each a varint length and
     * that many bytes), copied out.
     */
    static byte[][] values(ByteBuffer entry, int offset, int count) {
        Cursor in = new Cursor(entry, offset);
        byte[][] values = new byte[count][];
        for (int v = 0; v < count; v++) {
            values[v] = in.bytes();
        }
        return values;
    }

    /** Reads only the parent ID, for scope checks that need nothing else. */
    public static long parentId(ByteBuffer buffer) {
        return buffer.getLong(buffer.position() + 1);
    }

    /**
     * Reads only the stored name (the RDN, or a root's whole DN), for rebuilding DNs up the parent
     * chain; the buffer's position is not moved.
     *
     * @throws IllegalStateException when the bytes are not an entry of this format
     */
    public static String name(ByteBuffer buffer) {
        In in = new In(buffer.duplicate());
        int version = in.u8();
        if (version != VERSION) {
            throw new IllegalStateException("stored entry has unknown format version " + version);
        }
        in.i64(); // the parent ID
        return in.str();
    }

    private static byte[] userBytes(Attribute attribute, Value value) {
        return attribute.isHumanReadable() ? value.getString().getBytes(UTF_8) : value.getBytes();
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

    /** Reads a decoded entry's bytes (a copy, or the transaction's memory) by absolute index. */
    private static final class Cursor {
        private static final VarHandle LONG_AT =
                MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
        /** Entries up to this size are walked in a copy ({@link #walking}); past it, where they lie. */
        private static final int MAX_WALK_COPY = 64 * 1024;
        /**
         * Per thread, the copy an entry read in place is walked in: a direct buffer's get costs a bounds
         * and a memory-session check per byte, and the walk reads every value's length (decode was 14% of
         * the server's CPU on the addressing mix at 1M entries, async-profiler); one bulk copy of the
         * kilobyte is cheaper. Only the walk uses it: the entry keeps reading its values from the buffer.
         */
        private static final ThreadLocal<byte[]> WALK_COPY = ThreadLocal.withInitial(() -> new byte[4096]);

        private final ByteBuffer b;
        /**
         * The buffer's array when it has one (an entry's own copy), read directly: a heap buffer's
         * get costs a bounds check and a memory-session check per byte, and decoding reads every
         * attribute's varints.
         */
        private final byte[] array;

        private final int arrayOffset;
        private final int limit;
        private int at;

        Cursor(ByteBuffer b) {
            this(b, 0);
        }

        Cursor(ByteBuffer b, int at) {
            this.b = b;
            this.array = b.hasArray() ? b.array() : null;
            this.arrayOffset = array != null ? b.arrayOffset() : 0;
            this.limit = b.limit();
            this.at = at;
        }

        /** Over the first {@code limit} bytes of {@code copy}, which no buffer wraps. */
        private Cursor(byte[] copy, int limit) {
            this.b = null;
            this.array = copy;
            this.arrayOffset = 0;
            this.limit = limit;
            this.at = 0;
        }

        /**
         * A cursor for one walk over {@code bytes} from index 0, ended before the calling thread walks
         * another: over a copy in the thread's array when {@code bytes} is direct and not large.
         */
        static Cursor walking(ByteBuffer bytes) {
            int n = bytes.limit();
            if (bytes.hasArray() || n > MAX_WALK_COPY) {
                return new Cursor(bytes);
            }
            byte[] copy = WALK_COPY.get();
            if (copy.length < n + Long.BYTES) {
                copy = new byte[Math.max(n + Long.BYTES, copy.length * 2)];
                WALK_COPY.set(copy);
            }
            bytes.get(0, copy, 0, n);
            // Zeros past the entry: a number cut off at its end reads one of them and ends, not
            // whatever an earlier entry left there (see next()).
            Arrays.fill(copy, n, n + Long.BYTES, (byte) 0);
            return new Cursor(copy, n);
        }

        /** Refuses a walk that read past the limit (a number cut off at the end: see {@link #next}). */
        void endedInside() {
            if (at > limit) {
                throw new IllegalStateException("stored entry ends inside a number");
            }
        }

        int position() {
            return at;
        }

        /**
         * The byte at the cursor, unchecked against {@link #limit} (a test per byte made decoding 17%
         * slower, EntryCodecBenchmark): past it, a buffer or an exact copy throws, and a walk copy
         * reads zeros, which end any number, so that the walk's end finds the cursor past the limit.
         */
        private byte next() {
            return array != null ? array[arrayOffset + at++] : b.get(at++);
        }

        int u8() {
            if (at >= limit) {
                throw new IllegalStateException("stored entry ends inside a number");
            }
            return Byte.toUnsignedInt(next());
        }

        long i64() {
            if (at > limit - Long.BYTES) {
                throw new IllegalStateException("stored entry ends inside a number");
            }
            long v = b != null ? b.getLong(at) : (long) LONG_AT.get(array, at);
            at += Long.BYTES;
            return v;
        }

        int varint() {
            int value = 0;
            for (int shift = 0; shift < 35; shift += 7) {
                int next = next();
                value |= (next & 0x7F) << shift;
                if ((next & 0x80) == 0) {
                    return value;
                }
            }
            throw new IllegalStateException("malformed varint in stored entry");
        }

        void skip(int n) {
            if (n < 0 || n > limit - at) {
                throw new IllegalStateException("stored entry ends inside a value");
            }
            at += n;
        }

        byte[] bytes() {
            int n = varint();
            int from = at;
            skip(n);
            if (array != null) {
                return Arrays.copyOfRange(array, arrayOffset + from, arrayOffset + from + n);
            }
            byte[] out = new byte[n];
            b.get(from, out);
            return out;
        }

        String str(int n) {
            int from = at;
            skip(n);
            if (array != null) {
                return new String(array, arrayOffset + from, n, UTF_8);
            }
            byte[] copy = new byte[n];
            b.get(from, copy);
            return new String(copy, UTF_8);
        }

        String str() {
            return str(varint());
        }
    }
}
