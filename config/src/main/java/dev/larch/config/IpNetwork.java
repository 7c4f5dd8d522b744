package dev.larch.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/**
 * An IPv4 or IPv6 network in CIDR notation ({@code 10.0.0.0/8}, {@code 2001:db8::/32}), or one address
 * ({@code 192.0.2.7}, {@code ::1}: all its bits). Only numeric forms are accepted: no name is ever looked
 * up. Bits of the address beyond the prefix are ignored. Immutable.
 */
public final class IpNetwork {
    private final byte[] prefix;
    private final int bits;

    private IpNetwork(byte[] prefix, int bits) {
        this.prefix = prefix;
        this.bits = bits;
    }

    /**
     * Parses one network.
     *
     * @throws IllegalArgumentException naming {@code text} when it is not a numeric address, optionally
     *     followed by {@code /} and a prefix length of at most 32 (IPv4) or 128 (IPv6)
     */
    public static IpNetwork parse(String text) {
        String address = text.strip();
        int bits = -1;
        int slash = address.indexOf('/');
        if (slash >= 0) {
            String length = address.substring(slash + 1);
            address = address.substring(0, slash);
            if (length.isEmpty() || length.length() > 3 || !length.chars().allMatch(c -> c >= '0' && c <= '9')) {
                throw new IllegalArgumentException("'" + text + "' has no valid prefix length");
            }
            bits = Integer.parseInt(length);
        }
        byte[] bytes = numeric(text, address);
        int max = bytes.length * 8;
        if (bits > max) {
            throw new IllegalArgumentException("'" + text + "': prefix length above " + max);
        }
        return new IpNetwork(bytes, bits < 0 ? max : bits);
    }

    /**
     * The bytes of a numeric address. IPv4 is read here: {@link InetAddress#getByName} would read
     * {@code 10.1} as 10.0.0.1 and look {@code 10.1.2.300} up as a name. IPv6 text (with a colon) it
     * never looks up.
     */
    private static byte[] numeric(String text, String address) {
        if (address.indexOf(':') < 0) {
            return ipv4(text, address);
        }
        if (!address.chars().allMatch(c -> Character.digit(c, 16) >= 0 || c == ':' || c == '.')) {
            throw notAnAddress(text, null);
        }
        try {
            return InetAddress.getByName(address).getAddress();
        } catch (UnknownHostException e) {
            throw notAnAddress(text, e);
        }
    }

    private static byte[] ipv4(String text, String address) {
        String[] parts = address.split("\\.", -1);
        if (parts.length != 4) {
            throw notAnAddress(text, null);
        }
        byte[] bytes = new byte[4];
        for (int i = 0; i < 4; i++) {
            String part = parts[i];
            if (part.isEmpty() || part.length() > 3 || !part.chars().allMatch(c -> c >= '0' && c <= '9')) {
                throw notAnAddress(text, null);
            }
            int value = Integer.parseInt(part);
            if (value > 255) {
                throw notAnAddress(text, null);
            }
            bytes[i] = (byte) value;
        }
        return bytes;
    }

    private static IllegalArgumentException notAnAddress(String text, Exception cause) {
        return new IllegalArgumentException("'" + text + "' is not a numeric IP address or network", cause);
    }

    /** True when {@code address} is of the same family and its first {@link #bits()} bits are the prefix's. */
    public boolean contains(InetAddress address) {
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

    /** The prefix length: 0..32 for IPv4, 0..128 for IPv6. */
    public int bits() {
        return bits;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IpNetwork n && bits == n.bits && Arrays.equals(prefix, n.prefix);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(prefix) * 31 + bits;
    }

    /** The network as it could be configured: address (as given, host bits kept), {@code /}, prefix length. */
    @Override
    public String toString() {
        try {
            return InetAddress.getByAddress(prefix).getHostAddress() + "/" + bits;
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // 4 or 16 bytes, always valid
        }
    }
}
