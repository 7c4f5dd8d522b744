package dev.larch.server.auth;

import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.protocol.Operation;
import dev.larch.server.store.ReadTxn;
import org.apache.directory.api.ldap.model.message.BindRequest;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.name.Dn;

/**
 * Simple binds (RFC 4513 section 5.1): anonymous, the administrator, and entries with a
 * {@code userPassword}. SASL is refused with authMethodNotSupported. A failed bind leaves the
 * connection anonymous; unknown DNs and wrong passwords get the same answer.
 */
public final class BindHandler {
    private final Directory directory;
    private final Credentials credentials;

    public BindHandler(Directory directory, Credentials credentials) {
        this.directory = directory;
        this.credentials = credentials;
    }

    public void handle(Operation op, BindRequest request) {
        op.session().bound(Dn.EMPTY_DN, false);
        if (!request.getVersion3()) {
            throw new ResultCodeException(ResultCodeEnum.PROTOCOL_ERROR, "only LDAP version 3 is supported");
        }
        if (!request.isSimple()) {
            throw new ResultCodeException(
                    ResultCodeEnum.AUTH_METHOD_NOT_SUPPORTED, "SASL authentication is not supported");
        }
        String name = request.getName() == null ? "" : request.getName();
        byte[] password = request.getCredentials() == null ? new byte[0] : request.getCredentials();
        if (name.isEmpty()) {
            if (password.length > 0) {
                throw new ResultCodeException(ResultCodeEnum.INVALID_CREDENTIALS, "a password was given without a DN");
            }
            succeed(op, request);
            return;
        }
        Dn dn = directory.schemaNormalizer().dn(name);
        if (password.length == 0) {
            throw new ResultCodeException(
                    ResultCodeEnum.UNWILLING_TO_PERFORM,
                    "unauthenticated bind (DN with an empty password) is not allowed");
        }
        if (dn.equals(credentials.adminDn())) {
            if (!credentials.isAdminPassword(password)) {
                throw invalid();
            }
            op.session().bound(dn, true);
            succeed(op, request);
            return;
        }
        if (!entryPasswordMatches(dn, password)) {
            throw invalid();
        }
        op.session().bound(dn, false);
        succeed(op, request);
    }

    private boolean entryPasswordMatches(Dn dn, byte[] password) {
        try (ReadTxn txn = directory.store().read()) {
            long id = directory.resolve(txn, dn);
            StoredEntry entry = id == ReadTxn.NOT_FOUND ? null : directory.load(txn, id);
            StoredAttribute stored = entry == null ? null : entry.attribute(AccessPolicy.USER_PASSWORD_OID);
            if (stored == null) {
                return false;
            }
            for (byte[] value : stored.values()) {
                if (credentials.matches(value, password)) {
                    return true;
                }
            }
            return false;
        }
    }

    private static void succeed(Operation op, BindRequest request) {
        ResultResponse response = request.getResultResponse();
        response.getLdapResult().setResultCode(ResultCodeEnum.SUCCESS);
        op.complete(response);
    }

    private static ResultCodeException invalid() {
        return new ResultCodeException(ResultCodeEnum.INVALID_CREDENTIALS, "invalid credentials");
    }
}
