package dev.larch.config;

import java.util.Locale;

/** Byte counts as the config file writes them: digits and an optional binary unit (k, m, g, t). */
final class ByteSize {
    private static final String UNITS = "kmgt";

    private ByteSize() {}

    /**
     * @param text for example {@code 64g}, {@code 512M}, {@code 10m}, {@code 4096}; a trailing
     *     {@code b} or {@code ib} is allowed ({@code 64GiB})
     * @return the byte count, or -1 when the text is no size or overflows a long
     */
    static long parse(String text) {
        String s = text.strip().toLowerCase(Locale.ROOT);
        if (s.endsWith("ib")) {
            s = s.substring(0, s.length() - 2);
        } else if (s.endsWith("b")) {
            s = s.substring(0, s.length() - 1);
        }
        int shift = 0;
        if (!s.isEmpty()) {
            int unit = UNITS.indexOf(s.charAt(s.length() - 1));
            if (unit >= 0) {
                shift = 10 * (unit + 1);
                s = s.substring(0, s.length() - 1);
            }
        }
        if (s.isEmpty() || !s.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return -1;
        }
        try {
            long n = Long.parseLong(s);
            return n > (Long.MAX_VALUE >> shift) ? -1 : n << shift;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** The shortest exact spelling of a byte count: {@code 64g}, {@code 1k}, {@code 1000}. */
    static String format(long bytes) {
        for (int unit = UNITS.length(); unit > 0; unit--) {
            long factor = 1L << (10 * unit);
            if (bytes != 0 && bytes % factor == 0) {
                return (bytes / factor) + String.valueOf(UNITS.charAt(unit - 1));
            }
        }
        return Long.toString(bytes);
    }
}
