package dev.larch.server.store;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * One record of the change log ({@link ChangeLogTree}): an entry was added, modified, renamed or
 * deleted by the change stamped {@code csn}.
 *
 * @param csn the change's CSN, {@value #CSN_BYTES} ASCII bytes
 * @param kind what happened to the entry
 * @param entryId the entry's ID (for a delete, the ID it had)
 * @param uuid the entry's entryUUID, {@value #UUID_BYTES} raw bytes
 */
public record LoggedChange(byte[] csn, Kind kind, long entryId, byte[] uuid) {
    /** The length of a CSN's text: {@code YYYYmmddHHMMSS.uuuuuuZ#cccccc#sss#mmmmmm}. */
    public static final int CSN_BYTES = 40;

    public static final int UUID_BYTES = 16;

    public LoggedChange {
        Objects.requireNonNull(kind, "kind");
        if (csn.length != CSN_BYTES) {
            throw new IllegalArgumentException("a CSN has " + CSN_BYTES + " bytes, got " + csn.length);
        }
        if (uuid.length != UUID_BYTES) {
            throw new IllegalArgumentException("a UUID has " + UUID_BYTES + " bytes, got " + uuid.length);
        }
    }

    /** The CSN as text. */
    public String csnText() {
        return new String(csn, StandardCharsets.US_ASCII);
    }

    /** What happened to the entry; the codes are stored, so they never change. */
    public enum Kind {
        ADD(1),
        MODIFY(2),
        RENAME(3),
        DELETE(4);

        private final byte code;

        Kind(int code) {
            this.code = (byte) code;
        }

        byte code() {
            return code;
        }

        static Kind of(byte code) {
            for (Kind kind : values()) {
                if (kind.code == code) {
                    return kind;
                }
            }
            throw new IllegalStateException("unknown change log record kind " + code);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LoggedChange other
                && Arrays.equals(csn, other.csn)
                && kind == other.kind
                && entryId == other.entryId
                && Arrays.equals(uuid, other.uuid);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(csn), kind, entryId, Arrays.hashCode(uuid));
    }

    @Override
    public String toString() {
        return "LoggedChange[" + csnText() + " " + kind + " " + entryId + "]";
    }
}
