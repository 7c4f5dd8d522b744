package dev.larch.server.quota;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

import org.apache.directory.api.ldap.model.name.Dn;

/**
 * Whom a bucket belongs to, in a fixed 16 bytes whatever the client sent, so that a bucket table's
 * memory is bounded by its number of keys alone: an IP address as its 16-byte IPv6 form (IPv4 mapped
 * to {@code ::ffff:a.b.c.d}), a DN as the first 16 bytes of the SHA-256 of its normalized form (a
 * cryptographic hash, so that no one can choose two DNs that share a bucket).
 */
record QuotaKey(long high, long low) {

    private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(QuotaKey::sha256);

    /** The key of the client address {@code address} (its IP address; the port is ignored). */
    static QuotaKey ofAddress(SocketAddress address) {
        if (address instanceof InetSocketAddress inet && inet.getAddress() != null) {
            return ofIp(inet.getAddress());
        }
        // Not an IP connection (an in-process channel): one key per printed address.
        return digest(String.valueOf(address));
    }

    static QuotaKey ofIp(InetAddress ip) {
        byte[] bytes = ip.getAddress();
        if (bytes.length == 4) {
            long mapped = 0xFFFFL << 32 | (ByteBuffer.wrap(bytes).getInt() & 0xFFFF_FFFFL);
            return new QuotaKey(0, mapped);
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        return new QuotaKey(buffer.getLong(), buffer.getLong());
    }

    /** The key of the bound identity {@code dn}, from its normalized form. */
    static QuotaKey ofIdentity(Dn dn) {
        return digest(dn.getNormName());
    }

    private static QuotaKey digest(String text) {
        MessageDigest sha = SHA_256.get();
        ByteBuffer hash = ByteBuffer.wrap(sha.digest(text.getBytes(StandardCharsets.UTF_8)));
        return new QuotaKey(hash.getLong(), hash.getLong());
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            // Every Java platform must provide SHA-256.
            throw new IllegalStateException(e);
        }
    }
}
