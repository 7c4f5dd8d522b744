package dev.larch.server.csn;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

import static java.nio.charset.StandardCharsets.US_ASCII;

/**
 * One change sequence number in the form OpenLDAP 2.4 and later write ({@code ldap_pvt_csnstr}):
 * {@code YYYYmmddHHMMSS.uuuuuuZ#cccccc#sss#mmmmmm}, the UTC time with microseconds, a 6-hex-digit
 * change count within that microsecond, the 3-hex-digit server ID (0–4095) and a 6-hex-digit
 * modifier count, hex in lower case. Always {@value #LENGTH} ASCII characters.
 *
 * <p>CSNs are ordered as slapd orders them (csnOrderingMatch): by their bytes, which orders by time,
 * then count, then server ID, then modifier. {@link #toBytes()} is that text, so the unsigned byte
 * order of the bytes (an LMDB key) is the CSN order.
 *
 * <p>Parsing is strict: only the 40-character form; the legacy 2.1 and 2.3 forms slapd still reads are
 * refused. Upper-case hex digits are accepted and written back in lower case, as slapd's normalizer
 * does for the server ID and modifier. Immutable and thread-safe.
 */
public final class Csn implements Comparable<Csn> {

    /** The length of a CSN, in characters and in bytes. */
    public static final int LENGTH = 40;

    public static final int MAX_COUNT = 0xFFFFFF;
    public static final int MAX_SID = 0xFFF;
    public static final int MAX_MODIFIER = 0xFFFFFF;

    private static final int TIME_END = 22; // "YYYYmmddHHMMSS.uuuuuuZ"
    private static final int MIN_YEAR = 1000; // four digits, as generalizedTime requires
    private static final int MAX_YEAR = 9999;

    private final String text;
    /** Read often (vectors are kept in server ID order), so parsed once. */
    private final int sid;

    private Csn(String text) {
        this.text = text;
        this.sid = Integer.parseInt(text, 30, 33, 16);
    }

    /**
     * The CSN of {@code epochMicros} (microseconds since 1970-01-01T00:00Z), change count {@code count}
     * (0–{@value #MAX_COUNT}), server ID {@code sid} (0–{@value #MAX_SID}) and modifier {@code modifier}
     * (0–{@value #MAX_MODIFIER}).
     *
     * @throws IllegalArgumentException when a field is out of range, or the time is outside the years
     *     1000–9999
     */
    public static Csn of(long epochMicros, int count, int sid, int modifier) {
        checkRange("change count", count, MAX_COUNT);
        checkRange("server ID", sid, MAX_SID);
        checkRange("modifier", modifier, MAX_MODIFIER);
        LocalDateTime time = LocalDateTime.ofEpochSecond(Math.floorDiv(epochMicros, 1_000_000L), 0, ZoneOffset.UTC);
        if (time.getYear() < MIN_YEAR || time.getYear() > MAX_YEAR) {
            throw new IllegalArgumentException("a CSN's time must fall in the years 1000-9999: " + time);
        }
        int micros = (int) Math.floorMod(epochMicros, 1_000_000L);
        String formatted = String.format(
                Locale.ROOT,
                "%04d%02d%02d%02d%02d%02d.%06dZ#%06x#%03x#%06x",
                time.getYear(),
                time.getMonthValue(),
                time.getDayOfMonth(),
                time.getHour(),
                time.getMinute(),
                time.getSecond(),
                micros,
                count,
                sid,
                modifier);
        return new Csn(formatted);
    }

    /**
     * Parses {@code text}.
     *
     * @throws IllegalArgumentException naming the part that is wrong
     */
    public static Csn parse(CharSequence text) {
        if (text.length() != LENGTH) {
            throw invalid(text, "it has " + text.length() + " characters, not " + LENGTH);
        }
        for (int i = 0; i < TIME_END - 1; i++) {
            if (i == 14) {
                expect(text, i, '.', "the seconds and microseconds");
            } else if (!isDigit(text.charAt(i))) {
                throw invalid(text, "the time YYYYmmddHHMMSS.uuuuuu has a non-digit at " + i);
            }
        }
        expect(text, 21, 'Z', "the time (UTC)");
        expect(text, 22, '#', "the time and the change count");
        expect(text, 29, '#', "the change count and the server ID");
        expect(text, 33, '#', "the server ID and the modifier");
        checkHex(text, 23, 29, "change count");
        checkHex(text, 30, 33, "server ID");
        checkHex(text, 34, 40, "modifier");
        try {
            LocalDateTime.of(
                    number(text, 0, 4),
                    number(text, 4, 6),
                    number(text, 6, 8),
                    number(text, 8, 10),
                    number(text, 10, 12),
                    number(text, 12, 14));
        } catch (DateTimeException e) {
            throw invalid(text, "the time is not a valid date and time: " + e.getMessage());
        }
        if (number(text, 0, 4) < MIN_YEAR) {
            throw invalid(text, "the year is before 1000");
        }
        String csn = text.toString();
        return new Csn(csn.substring(0, TIME_END) + csn.substring(TIME_END).toLowerCase(Locale.ROOT));
    }

    /**
     * The CSN whose {@link #toBytes()} are {@code bytes}.
     *
     * @throws IllegalArgumentException when they are not a CSN
     */
    public static Csn fromBytes(byte[] bytes) {
        return parse(new String(bytes, US_ASCII));
    }

    /** The {@value #LENGTH} ASCII bytes of the text; their unsigned order is the CSN order. */
    public byte[] toBytes() {
        return text.getBytes(US_ASCII);
    }

    /** The time, in microseconds since 1970-01-01T00:00Z. */
    public long epochMicros() {
        LocalDateTime time = LocalDateTime.of(
                number(text, 0, 4),
                number(text, 4, 6),
                number(text, 6, 8),
                number(text, 8, 10),
                number(text, 10, 12),
                number(text, 12, 14));
        return Math.addExact(Math.multiplyExact(time.toEpochSecond(ZoneOffset.UTC), 1_000_000L), number(text, 15, 21));
    }

    /** The time, to the microsecond. */
    public Instant instant() {
        return Instant.EPOCH.plus(epochMicros(), ChronoUnit.MICROS);
    }

    /** The change count within the microsecond. */
    public int count() {
        return Integer.parseInt(text, 23, 29, 16);
    }

    /** The ID of the server that made the change. */
    public int sid() {
        return sid;
    }

    public int modifier() {
        return Integer.parseInt(text, 34, 40, 16);
    }

    /** Whether this CSN comes after {@code other}. */
    public boolean isAfter(Csn other) {
        return compareTo(other) > 0;
    }

    /** By bytes, as slapd orders CSNs. */
    @Override
    public int compareTo(Csn other) {
        return text.compareTo(other.text);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Csn other && text.equals(other.text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    /** The CSN as slapd writes it. */
    @Override
    public String toString() {
        return text;
    }

    private static void checkRange(String what, int value, int max) {
        if (value < 0 || value > max) {
            throw new IllegalArgumentException("a CSN's " + what + " must be 0-" + max + ", not " + value);
        }
    }

    private static void expect(CharSequence text, int index, char wanted, String between) {
        if (text.charAt(index) != wanted) {
            throw invalid(text, "'" + wanted + "' expected at " + index + " after " + between);
        }
    }

    private static void checkHex(CharSequence text, int from, int to, String field) {
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (!isDigit(c) && !(c >= 'a' && c <= 'f') && !(c >= 'A' && c <= 'F')) {
                throw invalid(text, "the " + field + " must be " + (to - from) + " hex digits");
            }
        }
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static int number(CharSequence text, int from, int to) {
        int value = 0;
        for (int i = from; i < to; i++) {
            value = value * 10 + (text.charAt(i) - '0');
        }
        return value;
    }

    private static IllegalArgumentException invalid(CharSequence text, String why) {
        String shown = text.length() > 64 ? text.subSequence(0, 64) + "..." : text.toString();
        return new IllegalArgumentException("not a CSN (" + why + "): \"" + shown + "\"");
    }
}
