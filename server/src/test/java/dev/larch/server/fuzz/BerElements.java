package dev.larch.server.fuzz;

import java.util.ArrayList;
import java.util.List;

/**
 * The TLV elements of a byte string, found by walking its BER structure: every element with a
 * definite length that fits its enclosing element, constructed ones recursively. A broken region
 * ends the walk of its level, so a mutated PDU still yields the elements before the damage.
 * Stateless; at most {@link #MAX_ELEMENTS} elements are listed.
 */
final class BerElements {
    static final int MAX_ELEMENTS = 4096;

    /**
     * One element: {@code start} is its tag octet, {@code lengthAt} its first length octet,
     * {@code valueAt} its first value octet, {@code end} one past its last octet.
     */
    record Element(int start, int lengthAt, int valueAt, int end, boolean constructed) {
        int lengthOctets() {
            return valueAt - lengthAt;
        }
    }

    private BerElements() {}

    static List<Element> of(byte[] bytes) {
        List<Element> out = new ArrayList<>();
        walk(bytes, 0, bytes.length, out, 0);
        return out;
    }

    private static void walk(byte[] b, int from, int to, List<Element> out, int depth) {
        int i = from;
        while (i < to && out.size() < MAX_ELEMENTS && depth < 200) {
            int start = i;
            int tag = b[i++] & 0xff;
            if ((tag & 0x1f) == 0x1f) {
                return; // multi-octet tags do not occur in LDAP
            }
            if (i >= to) {
                return;
            }
            int lengthAt = i;
            int first = b[i++] & 0xff;
            long length;
            if (first < 0x80) {
                length = first;
            } else {
                int n = first & 0x7f;
                if (n == 0 || n > 4 || i + n > to) {
                    return;
                }
                length = 0;
                for (int k = 0; k < n; k++) {
                    length = (length << 8) | (b[i++] & 0xff);
                }
            }
            if (length > to - i) {
                return;
            }
            int end = i + (int) length;
            boolean constructed = (tag & 0x20) != 0;
            out.add(new Element(start, lengthAt, i, end, constructed));
            if (constructed) {
                walk(b, i, end, out, depth + 1);
            }
            i = end;
        }
    }
}
