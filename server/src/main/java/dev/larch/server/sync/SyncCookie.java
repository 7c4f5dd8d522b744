package dev.larch.server.sync;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

import dev.larch.server.csn.Csn;
import dev.larch.server.csn.CsnVector;

import static java.nio.charset.StandardCharsets.US_ASCII;

/**
 * A sync cookie in the grammar of OpenLDAP 2.5 ({@code slap_compose_sync_cookie} and
 * {@code slap_parse_sync_cookie} in servers/slapd/ldapsync.c): {@code rid=NNN[,sid=SSS][,csn=CSN[;CSN...]]}.
 *
 * <ul>
 *   <li>{@code rid}: the consumer's replica ID, 0–{@value #MAX_RID}, written as at least three decimal
 *       digits ({@code %03d}); a provider echoes the consumer's.
 *   <li>{@code sid}: the server ID of whoever composed the cookie, 0–{@value Csn#MAX_SID}, written as at
 *       least three lower-case hex digits ({@code %03x}); absent when that server has no server ID. A
 *       consumer names its own, a provider its own: it says who sent the cookie, not whose CSNs it holds,
 *       so CSNs of other server IDs are normal (multi-provider).
 *   <li>{@code csn}: the state, the highest CSN per server ID ({@link CsnVector}); absent in a consumer's
 *       first cookie.
 * </ul>
 *
 * <p>Parsing follows slapd where it is lenient (the keys in any order; more or fewer digits than slapd
 * writes, {@code rid=1}; {@code delcsn=}, which slapd's consumer keeps for itself, read and ignored) and
 * refuses the rest with a {@link MalformedCookieException} saying what is wrong, where slapd would
 * silently drop the cookie or part of it: no {@code rid}, a value out of range, a key it does not know,
 * a key twice, an empty element, a CSN that is not one, a cookie longer than {@value #MAX_BYTES} bytes or
 * not ASCII.
 *
 * @param rid the replica ID, 0–{@value #MAX_RID}
 * @param sid the sender's server ID, 0–{@value Csn#MAX_SID}, or {@link #NO_SID}
 * @param csns the state; empty when there is none
 */
public record SyncCookie(int rid, int sid, CsnVector csns) {

    public static final int MAX_RID = 999;

    /** The {@link #sid()} of a cookie without one. */
    public static final int NO_SID = -1;

    /** The longest cookie read: about 200 CSNs, far more server IDs than any replicated set has. */
    public static final int MAX_BYTES = 8192;

    /** More digits than this in a rid or sid is not a number slapd would write or read in range. */
    private static final int MAX_DIGITS = 8;

    /** @throws IllegalArgumentException when {@code rid} or {@code sid} is out of range */
    public SyncCookie {
        if (rid < 0 || rid > MAX_RID) {
            throw new IllegalArgumentException("a cookie's rid must be 0-" + MAX_RID + ", not " + rid);
        }
        if (sid != NO_SID && (sid < 0 || sid > Csn.MAX_SID)) {
            throw new IllegalArgumentException("a cookie's sid must be 0-" + Csn.MAX_SID + ", not " + sid);
        }
        if (csns == null) {
            throw new IllegalArgumentException("a cookie's CSN set may be empty, not null");
        }
    }

    /**
     * Parses the octets of a cookie as a client sent them.
     *
     * @throws MalformedCookieException saying what is wrong
     */
    public static SyncCookie parse(byte[] cookie) {
        if (cookie.length > MAX_BYTES) {
            throw new MalformedCookieException(
                    "the sync cookie has " + cookie.length + " bytes, more than " + MAX_BYTES);
        }
        try {
            return parse(US_ASCII.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(cookie))
                    .toString());
        } catch (CharacterCodingException e) {
            throw new MalformedCookieException("the sync cookie is not ASCII text");
        }
    }

    /**
     * Parses a cookie's text.
     *
     * @throws MalformedCookieException saying what is wrong
     */
    public static SyncCookie parse(String cookie) {
        if (cookie.length() > MAX_BYTES) {
            throw new MalformedCookieException(
                    "the sync cookie has " + cookie.length() + " characters, more than " + MAX_BYTES);
        }
        if (cookie.isEmpty()) {
            throw new MalformedCookieException("malformed sync cookie: it is empty");
        }
        int rid = -1;
        int sid = NO_SID;
        CsnVector csns = CsnVector.EMPTY;
        Set<String> seen = new HashSet<>();
        for (String element : cookie.split(",", -1)) {
            int equals = element.indexOf('=');
            if (equals < 0) {
                throw malformed(cookie, "an element is not key=value: \"" + shorten(element) + "\"");
            }
            String key = element.substring(0, equals);
            String value = element.substring(equals + 1);
            if (!seen.add(key)) {
                throw malformed(cookie, "it names " + shorten(key) + " twice");
            }
            switch (key) {
                case "rid" -> rid = number(cookie, "rid", value, 10, MAX_RID);
                case "sid" -> sid = number(cookie, "sid", value, 16, Csn.MAX_SID);
                case "csn" -> csns = csns(cookie, "csn", value);
                case "delcsn" -> csns(cookie, "delcsn", value); // the consumer's own bookkeeping
                default -> throw malformed(cookie, "unknown key \"" + shorten(key) + "\"");
            }
        }
        if (rid < 0) {
            throw malformed(cookie, "it names no rid");
        }
        return new SyncCookie(rid, sid, csns);
    }

    /** Whether the cookie names its sender's server ID. */
    public boolean hasSid() {
        return sid != NO_SID;
    }

    /** The cookie a provider with server ID {@code ourSid} sends this consumer for state {@code ours}: its rid echoed. */
    public SyncCookie reply(int ourSid, CsnVector ours) {
        return new SyncCookie(rid, ourSid, ours);
    }

    /** The text as slapd writes it: {@code rid=%03d[,sid=%03x][,csn=...]}. */
    public String format() {
        StringBuilder text = new StringBuilder(16 + csns.size() * (Csn.LENGTH + 1));
        text.append("rid=").append(String.format(Locale.ROOT, "%03d", rid));
        if (hasSid()) {
            text.append(",sid=").append(String.format(Locale.ROOT, "%03x", sid));
        }
        if (!csns.isEmpty()) {
            text.append(",csn=").append(csns.format());
        }
        return text.toString();
    }

    /** The octets of {@link #format()}, for a cookie field. */
    public byte[] toBytes() {
        return format().getBytes(US_ASCII);
    }

    @Override
    public String toString() {
        return format();
    }

    private static int number(String cookie, String key, String digits, int radix, int max) {
        if (digits.isEmpty() || digits.length() > MAX_DIGITS) {
            throw malformed(cookie, key + " must be 1-" + MAX_DIGITS + " digits");
        }
        int value = 0;
        for (int i = 0; i < digits.length(); i++) {
            char c = digits.charAt(i);
            int digit = c < 128 ? Character.digit(c, radix) : -1;
            if (digit < 0) {
                throw malformed(cookie, key + " is not a " + (radix == 10 ? "decimal" : "hex") + " number");
            }
            value = value * radix + digit;
        }
        if (value > max) {
            throw malformed(cookie, key + " must be at most " + max + ", not " + value);
        }
        return value;
    }

    private static CsnVector csns(String cookie, String key, String value) {
        if (value.isEmpty()) {
            throw malformed(cookie, key + "= holds no CSN");
        }
        try {
            return CsnVector.parse(value);
        } catch (IllegalArgumentException e) {
            throw malformed(cookie, key + "= holds " + e.getMessage());
        }
    }

    private static MalformedCookieException malformed(String cookie, String why) {
        return new MalformedCookieException("malformed sync cookie (" + why + "): \"" + shorten(cookie) + "\"");
    }

    /** At most 128 characters of {@code text}, anything but printable ASCII as '?': it is sent back. */
    private static String shorten(String text) {
        StringBuilder shown = new StringBuilder(Math.min(text.length(), 128) + 3);
        for (int i = 0; i < text.length() && i < 128; i++) {
            char c = text.charAt(i);
            shown.append(c >= 0x20 && c < 0x7F ? c : '?');
        }
        return text.length() > 128 ? shown.append("...").toString() : shown.toString();
    }
}
