package dev.larch.server.auth;

import java.util.ArrayList;
import java.util.List;

import dev.larch.server.error.ResultCodeException;
import dev.larch.server.protocol.Session;
import org.apache.directory.api.ldap.model.entry.Attribute;
import org.apache.directory.api.ldap.model.entry.DefaultAttribute;
import org.apache.directory.api.ldap.model.entry.Value;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;

/**
 * Turns the {@code userPassword} values clients write (Add, Modify, Password Modify) into the values
 * stored: cleartext (which the password policy checked before) is hashed with the configured scheme; a value that already carries a known {@code {SCHEME}} prefix is stored as given when the
 * administrator writes it and {@code security.allow-prehashed-passwords} is on, and refused with
 * constraintViolation otherwise (a user who could store a hash of their choosing could bypass
 * password policy, or plant a hash that costs every bind a second).
 *
 * <p>Immutable and thread-safe. {@link #screen} is cheap and runs on the event loop;
 * {@link #hashed} and {@link #storedValueFor} hash, so they run on a worker thread.
 */
public final class IncomingPasswords {
    private final PasswordAttributes attributes;
    private final PasswordHasher hasher;
    private final boolean allowPrehashed;
    private final HashCostLimits limits;

    /**
     * @param allowPrehashed {@code security.allow-prehashed-passwords}
     * @param limits what a stored hash may cost when a delete by value is matched against it
     */
    public IncomingPasswords(
            PasswordAttributes attributes, PasswordHasher hasher, boolean allowPrehashed, HashCostLimits limits) {
        this.attributes = attributes;
        this.hasher = hasher;
        this.allowPrehashed = allowPrehashed;
        this.limits = limits;
    }

    /** Whether {@code attribute} (schema-aware) holds values this class hashes. */
    public boolean hashes(Attribute attribute) {
        return attribute.getAttributeType() != null
                && attributes.isHashedOnWrite(attribute.getAttributeType().getOid());
    }

    /**
     * Refuses the prehashed values {@code session} may not store. Cheap: parses, never hashes.
     *
     * @param attribute a schema-aware attribute that {@link #hashes}
     * @return whether any value is cleartext, so that hashing (on a worker) is needed
     * @throws ResultCodeException constraintViolation for a prehashed value the writer may not store
     */
    public boolean screen(Session session, Attribute attribute) {
        boolean cleartext = false;
        for (Value v : attribute) {
            byte[] bytes = v.getBytes();
            if (!PasswordSchemes.isHashed(bytes)) {
                cleartext = true;
            } else if (!session.isAdmin() || !allowPrehashed) {
                throw new ResultCodeException(
                        ResultCodeEnum.CONSTRAINT_VIOLATION,
                        attribute.getUpId() + ": a value with a {SCHEME} prefix "
                                + (allowPrehashed
                                        ? "may only be written by the administrator"
                                        : "is refused (security.allow-prehashed-passwords is false)")
                                + "; send the password in cleartext and the server hashes it");
            }
        }
        return cleartext;
    }

    /**
     * The attribute with each cleartext value replaced by its hash (the password policy checked it
     * before); prehashed values (already {@link #screen screened}) are kept. Hashes: call
     * on a worker thread.
     */
    public Attribute hashed(Attribute attribute) {
        Attribute out = new DefaultAttribute(attribute.getUpId(), attribute.getAttributeType());
        for (Value v : attribute) {
            byte[] bytes = v.getBytes();
            byte[] stored = bytes;
            if (!PasswordSchemes.isHashed(bytes)) {
                stored = hashOne(bytes);
            }
            try {
                out.add(stored);
            } catch (LdapException e) {
                throw new ResultCodeException(
                        ResultCodeEnum.INVALID_ATTRIBUTE_SYNTAX, attribute.getUpId() + ": invalid value");
            }
        }
        return out;
    }

    /**
     * Hashes a new cleartext password (Password Modify; the password policy checked it before).
     * Hashes: call on a worker thread.
     */
    public byte[] hash(byte[] cleartext) {
        return hashOne(cleartext);
    }

    /**
     * The values of a delete by value as the entry stores them: a cleartext value means the stored
     * hash it verifies against, so {@code ldapmodify}'s "delete: userPassword / userPassword: old"
     * works on hashed values. A value stored as sent (a hash, or cleartext stored before hashing
     * began) stays as it is. Hashes: call on a worker thread.
     *
     * @param existing the entry's current values of the attribute, or null when it has none
     * @return the values to delete; one that matches nothing is kept, so the delete fails with
     *     noSuchAttribute as it would for any other missing value
     */
    public Attribute storedValueFor(Attribute existing, Attribute requested) {
        if (existing == null || requested.size() == 0) {
            return requested;
        }
        List<byte[]> resolved = new ArrayList<>();
        for (Value v : requested) {
            resolved.add(match(existing, v));
        }
        Attribute out = new DefaultAttribute(requested.getUpId(), requested.getAttributeType());
        for (byte[] bytes : resolved) {
            try {
                out.add(bytes);
            } catch (LdapException e) {
                throw new ResultCodeException(
                        ResultCodeEnum.INVALID_ATTRIBUTE_SYNTAX, requested.getUpId() + ": invalid value");
            }
        }
        return out;
    }

    /**
     * Whether a presented password matches any of the stored values (the old password of a Password
     * Modify). Hashes: call on a worker thread.
     */
    public boolean matchesAny(Attribute stored, byte[] presented) {
        if (stored == null) {
            return false;
        }
        for (Value v : stored) {
            if (PasswordSchemes.check(v.getBytes(), presented, false, limits) == PasswordCheck.MATCH) {
                return true;
            }
        }
        return false;
    }

    private byte[] match(Attribute existing, Value requested) {
        if (existing.contains(requested)) {
            return requested.getBytes();
        }
        byte[] presented = requested.getBytes();
        for (Value stored : existing) {
            if (PasswordSchemes.check(stored.getBytes(), presented, false, limits) == PasswordCheck.MATCH) {
                return stored.getBytes();
            }
        }
        return presented;
    }

    private byte[] hashOne(byte[] cleartext) {
        if (cleartext.length == 0) {
            throw new ResultCodeException(ResultCodeEnum.CONSTRAINT_VIOLATION, "a password must not be empty");
        }
        return hasher.hash(cleartext);
    }
}
