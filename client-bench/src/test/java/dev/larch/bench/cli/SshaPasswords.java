package dev.larch.bench.cli;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.List;

import com.unboundid.ldap.listener.Base64PasswordEncoderOutputFormatter;
import com.unboundid.ldap.listener.InMemoryPasswordEncoder;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ReadOnlyEntry;
import com.unboundid.ldap.sdk.ResultCode;

/**
 * Checks binds against the {@code {SSHA}} passwords generated people carry, for the in-memory
 * server. The SDK's own salted-digest encoder shares one MessageDigest between connection threads,
 * so concurrent binds as different people failed now and then; this one takes a digest per call.
 * Thread-safe.
 */
final class SshaPasswords extends InMemoryPasswordEncoder {
    private static final int DIGEST = 20;

    SshaPasswords() {
        super("{SSHA}", Base64PasswordEncoderOutputFormatter.getInstance());
    }

    private static byte[] digest(byte[] clear, byte[] salt) {
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            sha1.update(clear);
            sha1.update(salt);
            return sha1.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform must provide SHA-1", e);
        }
    }

    @Override
    protected byte[] encodePassword(byte[] clear, ReadOnlyEntry entry, List<Modification> mods) {
        byte[] salt = new byte[8];
        new SecureRandom().nextBytes(salt);
        byte[] out = Arrays.copyOf(digest(clear, salt), DIGEST + salt.length);
        System.arraycopy(salt, 0, out, DIGEST, salt.length);
        return out;
    }

    @Override
    protected void ensurePreEncodedPasswordAppearsValid(byte[] encoded, ReadOnlyEntry entry, List<Modification> mods)
            throws LDAPException {
        if (encoded.length <= DIGEST) {
            throw new LDAPException(ResultCode.CONSTRAINT_VIOLATION, "an {SSHA} value needs a digest and a salt");
        }
    }

    @Override
    protected boolean passwordMatches(byte[] clear, byte[] encoded, ReadOnlyEntry entry) {
        if (encoded.length <= DIGEST) {
            return false;
        }
        byte[] salt = Arrays.copyOfRange(encoded, DIGEST, encoded.length);
        return MessageDigest.isEqual(digest(clear, salt), Arrays.copyOf(encoded, DIGEST));
    }

    @Override
    protected byte[] extractClearPassword(byte[] encoded, ReadOnlyEntry entry) throws LDAPException {
        throw new LDAPException(ResultCode.UNWILLING_TO_PERFORM, "a salted digest cannot be reversed");
    }

    @Override
    public void toString(StringBuilder buffer) {
        buffer.append("SshaPasswords");
    }
}
