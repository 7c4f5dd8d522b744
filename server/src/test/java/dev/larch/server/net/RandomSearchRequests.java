package dev.larch.server.net;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.SearchRequestProtocolOp;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.DereferencePolicy;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.SearchScope;

/**
 * Random SearchRequest PDUs for the differential test of {@link SearchRequestReader}: encoded by the
 * UnboundID SDK (which sends any base DN, extensible matches and controls) and, through
 * {@link ApacheSearchRequests}, by the Apache encoder; re-encodable with the four-octet lengths OpenLDAP's liblber writes, and mutable byte by byte.
 */
final class RandomSearchRequests {

    static final String[] ATTRIBUTES = {
        "uid", "mail", "cn", "CN", "objectClass", "cn;lang-fr", "2.5.4.3", "telephoneNumber", "x-é", " ", "a b", "1"
    };
    static final String[] BASES = {
        "",
        "dc=example,dc=com",
        "ou=People, dc=example,dc=com",
        "UID=User.1+CN=Jo\\2C Doe,ou=People,dc=example,dc=com",
        "cn=Émile Zola,o=Société",
        "cn=#04024869,dc=x",
        " cn = spaced , dc = x ",
        "cn=a\\\\b\\+c,dc=x",
        "2.5.4.3=oid,dc=x",
        // refused by the Apache Dn parser: the Apache decoder answers invalidDNSyntax
        "not a dn",
        "cn=",
        "=x",
        "cn=x,",
        "cn=x\\",
    };
    private static final byte[] VALUE_BYTES = {
        'a', 'b', 'Z', '0', ' ', '(', ')', '*', '\\', 0, 0x7F, (byte) 0xC3, (byte) 0xA9, (byte) 0xFF, (byte) 0x80, '@'
    };

    final Random random;

    RandomSearchRequests(long seed) {
        this.random = new Random(seed);
    }

    /** A request as the UnboundID SDK encodes it; extensible matches and controls only when asked for. */
    byte[] unboundId(boolean unusual) {
        int id = random.nextInt(4) == 0 ? random.nextInt(Integer.MAX_VALUE) : random.nextInt(200);
        List<String> attributes = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) {
            attributes.add(random.nextInt(8) == 0 ? "" : pick(ATTRIBUTES));
        }
        SearchRequestProtocolOp op = new SearchRequestProtocolOp(
                pick(BASES),
                SearchScope.definedValueOf(random.nextInt(3)),
                DereferencePolicy.definedValueOf(random.nextInt(4)),
                limit(),
                limit(),
                random.nextBoolean(),
                unboundIdFilter(unusual, 1 + random.nextInt(4)),
                attributes);
        List<Control> controls = new ArrayList<>();
        if (unusual && random.nextInt(4) == 0) {
            controls.add(new Control("1.3.6.1.4.1.4203.1.10.1", random.nextBoolean()));
        }
        return new LDAPMessage(id, op, controls).encode().encode();
    }

    /** {@code pdu} with every constructed element's length in the 0x84 four-octet form, as liblber writes it. */
    static byte[] longFormLengths(byte[] pdu) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        rewrite(pdu, 0, pdu.length, out);
        return out.toByteArray();
    }

    /** {@code pdu} with one to three random bytes replaced. */
    byte[] mutated(byte[] pdu) {
        byte[] copy = pdu.clone();
        for (int i = 1 + random.nextInt(3); i > 0; i--) {
            int at = random.nextInt(copy.length);
            copy[at] = random.nextBoolean() ? (byte) random.nextInt(256) : (byte) (copy[at] + random.nextInt(3) - 1);
        }
        return copy;
    }

    int limit() {
        return switch (random.nextInt(5)) {
            case 0 -> 0;
            case 1 -> Integer.MAX_VALUE;
            case 2 -> random.nextInt(Integer.MAX_VALUE);
            case 3 -> 0x80 << (8 * random.nextInt(3));
            default -> random.nextInt(1000);
        };
    }

    private Filter unboundIdFilter(boolean unusual, int depth) {
        int choice = random.nextInt(depth > 1 ? 11 : 8);
        String attribute = pick(ATTRIBUTES);
        return switch (choice) {
            case 0 -> Filter.createEqualityFilter(attribute, value());
            case 1 -> Filter.createGreaterOrEqualFilter(attribute, value());
            case 2 -> Filter.createLessOrEqualFilter(attribute, value());
            case 3 -> Filter.createApproximateMatchFilter(attribute, value());
            case 4 -> Filter.createPresenceFilter(attribute);
            case 5, 6 -> unboundIdSubstrings(attribute);
            case 7 ->
                unusual
                        ? Filter.createExtensibleMatchFilter(attribute, "caseExactMatch", random.nextBoolean(), value())
                        : Filter.createEqualityFilter(attribute, value());
            case 8 -> Filter.createANDFilter(unboundIdChildren(unusual, depth));
            case 9 -> Filter.createORFilter(unboundIdChildren(unusual, depth));
            default -> Filter.createNOTFilter(unboundIdFilter(unusual, depth - 1));
        };
    }

    private List<Filter> unboundIdChildren(boolean unusual, int depth) {
        List<Filter> children = new ArrayList<>();
        for (int i = 1 + random.nextInt(3); i > 0; i--) {
            children.add(unboundIdFilter(unusual, depth - 1));
        }
        return children;
    }

    /** The SDK sends no empty substring component; SearchRequestReaderTest writes those by hand. */
    private Filter unboundIdSubstrings(String attribute) {
        byte[] initial = random.nextBoolean() ? part() : null;
        byte[][] any = new byte[random.nextInt(3)][];
        for (int i = 0; i < any.length; i++) {
            any[i] = part();
        }
        byte[] last = random.nextBoolean() || (initial == null && any.length == 0) ? part() : null;
        return Filter.createSubstringFilter(attribute, initial, any, last);
    }

    byte[] value() {
        byte[] value = new byte[random.nextInt(6) == 0 ? 0 : random.nextInt(12)];
        for (int i = 0; i < value.length; i++) {
            value[i] = VALUE_BYTES[random.nextInt(VALUE_BYTES.length)];
        }
        return value;
    }

    /** A substring component: never empty (the Apache decoder refuses an empty one). */
    byte[] part() {
        byte[] value = value();
        return value.length == 0 ? new byte[] {'x'} : value;
    }

    String pick(String[] choices) {
        return choices[random.nextInt(choices.length)];
    }

    private static void rewrite(byte[] pdu, int start, int end, ByteArrayOutputStream out) {
        int at = start;
        while (at < end) {
            int headerStart = at;
            int tag = pdu[at++] & 0xFF;
            int first = pdu[at++] & 0xFF;
            int length = first;
            if (first >= 0x80) {
                length = 0;
                for (int i = first & 0x7F; i > 0; i--) {
                    length = (length << 8) | (pdu[at++] & 0xFF);
                }
            }
            if ((tag & 0x20) != 0) {
                out.write(tag);
                ByteArrayOutputStream inner = new ByteArrayOutputStream();
                rewrite(pdu, at, at + length, inner);
                byte[] value = inner.toByteArray();
                out.write(0x84);
                out.write(value.length >>> 24);
                out.write(value.length >>> 16);
                out.write(value.length >>> 8);
                out.write(value.length);
                out.write(value, 0, value.length);
            } else {
                out.write(pdu, headerStart, at - headerStart + length);
            }
            at += length;
        }
    }
}
