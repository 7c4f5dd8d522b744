package dev.larch.server.access;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/**
 * An address or CIDR network from an {@code ip} subject ({@code 192.0.2.7}, {@code 10.0.0.0/8},
 * {@code ::1}, {@code 2001:db8::/32}). Only numeric forms are accepted: no name is ever looked up.
 * Immutable.
 */
record Network(byte[] prefix, int bits) {

    /**
     * @throws IllegalArgumentException when the text is not a numeric address, optionally with a prefix length
     */
    static Network parse(String text) {
        String address = text;
        int bits = -1;
        int slash = text.indexOf('/');
        if (slash >= 0) {
            address = text.substring(0, slash);
            try {
                bits = Integer.parseInt(text.substring(slash + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + text + "' has no valid prefix length", e);
            }
        }
        boolean v6 = address.indexOf(':') >= 0;
        boolean numeric = !address.isEmpty()
                && address.chars()
                        .allMatch(c -> v6
                                ? Character.digit(c, 16) >= 0 || c == ':' || c == '.'
                                : c == '.' || (c >= '0' && c <= '9'));
        if (!numeric || (!v6 && address.chars().filter(c -> c == '.').count() != 3)) {
            throw new IllegalArgumentException("'" + text + "' is not a numeric IP address or network");
        }
        byte[] bytes;
        try {
            bytes = InetAddress.getByName(address).getAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("'" + text + "' is not a numeric IP address or network", e);
        }
        int max = bytes.length * 8;
        if (bits < 0) {
            bits = max;
        }
        if (bits > max) {
            throw new IllegalArgumentException("'" + text + "': prefix length above " + max);
        }
        return new Network(bytes, bits);
    }

    boolean contains(InetAddress address) {
        byte[] a = address.getAddress();
        if (a.length != prefix.length) {
            return false;
        }
        int full = bits / 8;
        for (int i = 0; i < full; i++) {
            if (a[i] != prefix[i]) {
                return false;
            }
        }
        int rest = bits % 8;
        if (rest == 0) {
            return true;
        }
        int mask = (0xFF << (8 - rest)) & 0xFF;
        return (a[full] & mask) == (prefix[full] & mask);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Network n && bits == n.bits && Arrays.equals(prefix, n.prefix);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(prefix) * 31 + bits;
    }

    @Override
    public String toString() {
        return Arrays.toString(prefix) + "/" + bits;
    }
}
