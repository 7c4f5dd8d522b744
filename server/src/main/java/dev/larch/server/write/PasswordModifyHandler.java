package dev.larch.server.write;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.List;

import dev.larch.server.access.AccessControl;
import dev.larch.server.auth.IncomingPasswords;
import dev.larch.server.auth.PasswordAttributes;
import dev.larch.server.auth.policy.PasswordChangeEffects;
import dev.larch.server.auth.policy.PasswordGuesses;
import dev.larch.server.auth.policy.PasswordModifications;
import dev.larch.server.auth.policy.PolicyRefusal;
import dev.larch.server.auth.policy.PpolicyControls;
import dev.larch.server.commit.WriteQueue;
import dev.larch.server.directory.Directory;
import dev.larch.server.directory.SchemaChecker;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.protocol.Operation;
import dev.larch.server.protocol.Session;
import dev.larch.server.store.ReadTxn;
import org.apache.directory.api.asn1.ber.tlv.BerValue;
import org.apache.directory.api.asn1.util.Asn1Buffer;
import org.apache.directory.api.ldap.extras.controls.ppolicy.PasswordPolicyErrorEnum;
import org.apache.directory.api.ldap.extras.extended.pwdModify.PasswordModifyRequest;
import org.apache.directory.api.ldap.model.entry.DefaultModification;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.entry.Modification;
import org.apache.directory.api.ldap.model.entry.ModificationOperation;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.message.OpaqueExtendedResponse;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.name.Dn;

/**
 * The Password Modify extended operation (RFC 3062, 1.3.6.1.4.1.4203.1.11.1).
 *
 * <p>Who may use it: a bound user changes their own password (no userIdentity, or their own DN);
 * if they send oldPasswd it must match a stored value, else invalidCredentials. The administrator
 * sets anyone's without the old one. Anonymous sessions get unwillingToPerform; a user naming another
 * entry gets insufficientAccessRights. The administrator's own password lives in the configuration
 * and cannot be changed here (unwillingToPerform).
 *
 * <p>Without newPasswd the server generates {@value #GENERATED_LENGTH} characters from a
 * {@link SecureRandom} and returns them in genPasswd. The old password is verified and the new one
 * hashed on a worker ({@link PasswordWork}); the entry is written on the write queue like a Modify
 * that replaces {@code userPassword}, with modifyTimestamp and modifiersName updated.
 */
public final class PasswordModifyHandler {
    static final int GENERATED_LENGTH = 16;
    /** Letters and digits without the look-alikes 0/O, 1/l/I, so a generated password can be read aloud. */
    private static final String ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
    /** Context tag [0] of genPasswd, primitive. */
    private static final byte GEN_PASSWD_TAG = (byte) 0x80;
    /** Longest userIdentity and password accepted; the PDU bound limits them anyway. */
    private static final int MAX_FIELD_BYTES = 4096;

    private final Directory directory;
    private final ModifyStamps stamps;
    private final SchemaChecker checker;
    private final WriteQueue writes;
    private final PasswordWork passwordWork;
    private final Dn adminDn;
    /** Null when no password policy is enforced. */
    private final PasswordModifications policy;

    private final AccessControl access;

    /** What Password Modify does to the entry, as access control judges it. */
    private static final Modification PASSWORD_CHANGE =
            new DefaultModification(ModificationOperation.REPLACE_ATTRIBUTE, "userPassword");

    private final SecureRandom random = new SecureRandom();

    /**
     * @param adminDn the administrator, whose password this operation cannot change
     * @param access decides whether a user may change their own {@code userPassword} (the built-in rules allow it)
     * @param policy the password policy that checks every new password before it is hashed; null for none
     */
    public PasswordModifyHandler(
            Directory directory,
            SchemaChecker checker,
            WriteQueue writes,
            PasswordWork passwordWork,
            Dn adminDn,
            AccessControl access,
            PasswordModifications policy) {
        this.access = access;
        this.policy = policy;
        this.directory = directory;
        this.stamps = new ModifyStamps(directory.schemaNormalizer().schema());
        this.checker = checker;
        this.writes = writes;
        this.passwordWork = passwordWork;
        this.adminDn = adminDn;
    }

    /** Called on the connection's event loop. */
    public void handle(Operation op, PasswordModifyRequest request) {
        Session session = op.session();
        if (session.isAnonymous()) {
            throw new ResultCodeException(
                    ResultCodeEnum.UNWILLING_TO_PERFORM, "bind first: an anonymous session has no password to change");
        }
        Dn target = target(session, request.getUserIdentity());
        if (target.equals(adminDn)) {
            throw new ResultCodeException(
                    ResultCodeEnum.UNWILLING_TO_PERFORM,
                    "the administrator's password is set in the configuration (security.admin-password)");
        }
        if (!session.isAdmin() && !target.equals(session.boundDn())) {
            throw new ResultCodeException(
                    ResultCodeEnum.INSUFFICIENT_ACCESS_RIGHTS,
                    "only the administrator may change another entry's password");
        }
        byte[] oldPassword = bounded(request.getOldPassword(), "oldPasswd");
        byte[] newPassword = bounded(request.getNewPassword(), "newPasswd");
        if (newPassword != null && newPassword.length == 0) {
            throw new ResultCodeException(ResultCodeEnum.CONSTRAINT_VIOLATION, "newPasswd must not be empty");
        }
        boolean adminReset = session.isAdmin();
        passwordWork.run(op, request, () -> change(op, request, target, oldPassword, newPassword, adminReset));
    }

    /**
     * On a worker: checks the old password, lets the password policy check the new one (quality,
     * history, {@code pwdAllowUserChange}, {@code pwdSafeModify}), hashes it, queues the write.
     */
    private void change(
            Operation op,
            PasswordModifyRequest request,
            Dn target,
            byte[] oldPassword,
            byte[] newPassword,
            boolean adminReset) {
        IncomingPasswords passwords = passwordWork.passwords();
        byte[] generated = newPassword == null ? generate() : null;
        byte[] cleartext = newPassword == null ? generated : newPassword;
        PasswordChangeEffects effects = PasswordChangeEffects.NONE;
        try (ReadTxn txn = directory.store().read()) {
            StoredEntry stored = directory.load(txn, directory.require(txn, target));
            // Before any hashing, so that a client without the right cannot make the server hash.
            access.requireModify(op.session(), txn, stored, List.of(PASSWORD_CHANGE));
            Entry current = directory.schemaNormalizer().toEntry(stored);
            if (oldPassword != null) {
                // A password check like a bind's: counted towards the lockout, refused while locked.
                PasswordGuesses.Guess guess = passwordWork.guesses().begin(txn, stored);
                boolean locked = guess.locked();
                if (locked || !passwords.matchesAny(current.get(PasswordAttributes.USER_PASSWORD_OID), oldPassword)) {
                    if (!locked) {
                        guess.failed();
                    }
                    throw new ResultCodeException(
                            ResultCodeEnum.INVALID_CREDENTIALS, "the old password does not match");
                }
            }
            if (policy != null) {
                if (!adminReset && oldPassword == null && policy.requiresOldPassword(current, txn)) {
                    throw new PolicyRefusal(
                            ResultCodeEnum.CONSTRAINT_VIOLATION,
                            PasswordPolicyErrorEnum.MUST_SUPPLY_OLD_PASSWORD,
                            "the password policy needs the old password (oldPasswd, ldappasswd -a)");
                }
                effects = policy.checkNewPassword(op.session(), current, cleartext, adminReset, txn);
            }
        } catch (PolicyRefusal refusal) {
            OpaqueExtendedResponse response = new OpaqueExtendedResponse(request.getMessageId());
            response.getLdapResult().setResultCode(refusal.code());
            response.getLdapResult().setDiagnosticMessage(refusal.getMessage());
            PpolicyControls.error(request, response, refusal.error());
            op.complete(response);
            return;
        }
        byte[] hash = passwords.hash(cleartext);
        PasswordChangeEffects stateChanges = effects;
        Session session = op.session();
        Dn modifier = session.boundDn();
        writes.submit(op, txn -> {
            StoredEntry before = directory.load(txn, directory.require(txn, target));
            Entry entry = directory.schemaNormalizer().toEntry(before);
            entry.removeAttributes(PasswordAttributes.USER_PASSWORD_OID);
            try {
                entry.add("userPassword", hash);
            } catch (LdapException e) {
                throw new ResultCodeException(ResultCodeEnum.OTHER, "cannot store the new password");
            }
            stateChanges.applyTo(entry);
            stamps.stamp(entry, modifier);
            checker.addSuperclasses(entry);
            checker.check(entry);
            directory.replace(txn, before, entry);
            if (!adminReset) {
                // Only once the new password is durable: a no-op or failed change leaves the flag set.
                txn.onCommit(() -> session.mustChangePassword(false));
            }
            // RFC 3062 section 3: no responseName; a value only to carry genPasswd. The encoder
            // writes opaque responses as they are (typed extended responses lose their value there).
            OpaqueExtendedResponse response = new OpaqueExtendedResponse(request.getMessageId());
            if (generated != null) {
                response.setResponseValue(generatedValue(generated));
            }
            response.getLdapResult().setResultCode(ResultCodeEnum.SUCCESS);
            return response;
        });
    }

    /** {@code PasswdModifyResponseValue ::= SEQUENCE { genPasswd [0] OCTET STRING OPTIONAL }}. */
    private static byte[] generatedValue(byte[] generated) {
        Asn1Buffer buffer = new Asn1Buffer();
        int start = buffer.getPos();
        BerValue.encodeOctetString(buffer, GEN_PASSWD_TAG, generated);
        BerValue.encodeSequence(buffer, start);
        ByteBuffer bytes = buffer.getBytes();
        byte[] value = new byte[bytes.remaining()];
        bytes.get(value);
        return value;
    }

    private Dn target(Session session, byte[] userIdentity) {
        if (userIdentity == null || userIdentity.length == 0) {
            return session.boundDn();
        }
        String identity = new String(bounded(userIdentity, "userIdentity"), StandardCharsets.UTF_8);
        // RFC 3062 leaves the form open; slapd takes a DN, and "dn:" authzIds (RFC 4513 section 5.2.1.8) are DNs too.
        if (identity.regionMatches(true, 0, "dn:", 0, 3)) {
            identity = identity.substring(3);
        } else if (identity.regionMatches(true, 0, "u:", 0, 2)) {
            throw new ResultCodeException(
                    ResultCodeEnum.UNWILLING_TO_PERFORM, "userIdentity must be a DN; u: authzIds are not mapped");
        }
        return directory.schemaNormalizer().dn(identity);
    }

    private static byte[] bounded(byte[] field, String name) {
        if (field != null && field.length > MAX_FIELD_BYTES) {
            throw new ResultCodeException(
                    ResultCodeEnum.CONSTRAINT_VIOLATION, name + " is longer than " + MAX_FIELD_BYTES + " bytes");
        }
        return field;
    }

    private byte[] generate() {
        char[] password = new char[GENERATED_LENGTH];
        for (int i = 0; i < password.length; i++) {
            password[i] = ALPHABET.charAt(random.nextInt(ALPHABET.length()));
        }
        return new String(password).getBytes(StandardCharsets.US_ASCII);
    }
}
