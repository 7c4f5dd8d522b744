package dev.larch.server.auth;

import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import javax.crypto.Mac;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.SecretKeySpec;

/**
 * PBKDF2 (RFC 8018 section 5.2) over raw password bytes.
 *
 * <p>The JDK's {@code PBKDF2WithHmacSHA256} takes the password as {@code char[]} and re-encodes it,
 * which cannot represent an arbitrary octet string from a bind request; this works on the bytes as
 * sent. The password must not be empty. Thread-safe: every call uses its own {@link Mac}.
 */
final class Pbkdf2 {
    private final String hmacAlgorithm;

    Pbkdf2(String hmacAlgorithm) {
        this.hmacAlgorithm = hmacAlgorithm;
        newMac(new byte[] {0}); // fail at start-up, not at the first bind
    }

    int outputBytes() {
        return newMac(new byte[] {0}).getMacLength();
    }

    byte[] derive(byte[] password, byte[] salt, int iterations, int keyBytes) {
        Mac mac = newMac(password);
        int blockBytes = mac.getMacLength();
        byte[] key = new byte[keyBytes];
        byte[] u = new byte[blockBytes];
        for (int block = 1, offset = 0; offset < keyBytes; block++, offset += blockBytes) {
            mac.update(salt);
            mac.update(new byte[] {(byte) (block >>> 24), (byte) (block >>> 16), (byte) (block >>> 8), (byte) block});
            byte[] t = mac.doFinal();
            System.arraycopy(t, 0, u, 0, blockBytes);
            for (int i = 1; i < iterations; i++) {
                mac.update(u);
                try {
                    mac.doFinal(u, 0);
                } catch (ShortBufferException e) {
                    throw new IllegalStateException(e);
                }
                for (int j = 0; j < blockBytes; j++) {
                    t[j] ^= u[j];
                }
            }
            System.arraycopy(t, 0, key, offset, Math.min(blockBytes, keyBytes - offset));
        }
        return key;
    }

    private Mac newMac(byte[] password) {
        try {
            Mac mac = Mac.getInstance(hmacAlgorithm);
            mac.init(new SecretKeySpec(password, hmacAlgorithm));
            return mac;
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            // HmacSHA1 and HmacSHA256 are required of every Java platform; HmacSHA512 is in every JDK.
            throw new IllegalStateException(hmacAlgorithm + " unavailable", e);
        }
    }
}
