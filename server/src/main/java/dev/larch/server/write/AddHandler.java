package dev.larch.server.write;

import java.util.ArrayList;
import java.util.List;

import dev.larch.server.access.AccessControl;
import dev.larch.server.auth.IncomingPasswords;
import dev.larch.server.auth.policy.PasswordModifications;
import dev.larch.server.commit.WriteQueue;
import dev.larch.server.control.ReadEntryControl;
import dev.larch.server.directory.Directory;
import dev.larch.server.directory.SchemaChecker;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.protocol.Operation;
import org.apache.directory.api.ldap.model.entry.Attribute;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.message.AddRequest;
import org.apache.directory.api.ldap.model.message.Control;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.name.Dn;

/**
 * Add (RFC 4511 section 4.7): validated on the event loop, cleartext passwords hashed on a worker
 * ({@link PasswordWork}), written on the write queue.
 */
public final class AddHandler {
    private final Integrity integrity;
    private final Directory directory;
    private final NewEntries newEntries;
    private final WriteQueue writes;
    private final AccessControl access;
    private final PasswordWork passwordWork;
    private final ReadEntryControl postRead;
    /** Null when no password policy is enforced. */
    private final PasswordModifications policy;

    public AddHandler(
            Directory directory,
            SchemaChecker checker,
            WriteQueue writes,
            AccessControl access,
            PasswordWork passwordWork) {
        this(directory, checker, writes, access, passwordWork, null);
    }

    /** @param policy stamps {@code pwdChangedTime} on entries added with a governed password; null for none */
    public AddHandler(
            Directory directory,
            SchemaChecker checker,
            WriteQueue writes,
            AccessControl access,
            PasswordWork passwordWork,
            PasswordModifications policy) {
        this(directory, checker, writes, access, passwordWork, policy, Integrity.NONE);
    }

    /** @param integrity the uniqueness of attribute values an add must keep */
    public AddHandler(
            Directory directory,
            SchemaChecker checker,
            WriteQueue writes,
            AccessControl access,
            PasswordWork passwordWork,
            PasswordModifications policy,
            Integrity integrity) {
        this.integrity = integrity;
        this.policy = policy;
        this.directory = directory;
        this.newEntries = new NewEntries(directory, checker);
        this.writes = writes;
        this.access = access;
        this.passwordWork = passwordWork;
        this.postRead = ReadEntryControl.postRead(access, directory);
    }

    public void handle(Operation op, AddRequest request) {
        Dn dn = directory.schemaNormalizer().dn(request.getEntryDn());
        Entry entry = newEntries.prepare(
                dn,
                request.getEntry(),
                false,
                op.session().boundDn(),
                op.session().isAdmin());
        access.validate(entry);
        IncomingPasswords passwords = passwordWork.passwords();
        List<Attribute> toHash = new ArrayList<>();
        for (Attribute a : entry) {
            if (passwords.hashes(a) && passwords.screen(op.session(), a)) {
                toHash.add(a);
            }
        }
        if (toHash.isEmpty()) {
            insert(op, request, entry);
            return;
        }
        passwordWork.run(op, request, () -> {
            for (Attribute a : toHash) {
                Attribute hashed = passwords.hashed(a);
                entry.removeAttributes(a.getAttributeType());
                put(entry, hashed);
            }
            insert(op, request, entry);
        });
    }

    private void insert(Operation op, AddRequest request, Entry entry) {
        writes.submit(op, txn -> {
            ReadEntryControl.Requested post = postRead.requested(request);
            if (policy != null) {
                policy.onAdd(op.session(), entry, txn).applyTo(entry);
            }
            // An entry already at this DN holds its own values: the add then fails entryAlreadyExists.
            integrity.requireUnique(txn, entry, directory.resolve(txn, entry.getDn()), null);
            StoredEntry added = newEntries.insert(txn, entry);
            access.requireAdd(op.session(), txn, added);
            access.written(txn, null, added);
            Control postCopy = postRead.read(post, op.session(), txn, added);
            ResultResponse response = request.getResultResponse();
            response.getLdapResult().setResultCode(ResultCodeEnum.SUCCESS);
            ReadEntryControl.attach(response, null, postCopy);
            return response;
        });
    }

    private static void put(Entry entry, Attribute attribute) {
        try {
            entry.put(attribute);
        } catch (LdapException e) {
            throw new ResultCodeException(
                    ResultCodeEnum.OTHER, attribute.getUpId() + ": cannot store the hashed value");
        }
    }
}
