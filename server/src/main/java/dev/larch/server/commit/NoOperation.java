package dev.larch.server.commit;

import dev.larch.server.error.ResultCodeException;
import dev.larch.server.protocol.WireResultCode;
import org.apache.directory.api.ldap.model.message.Control;
import org.apache.directory.api.ldap.model.message.Request;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.message.controls.OpaqueControl;

/**
 * The LDAP no-op control (draft-zeilenga-ldap-noop): an add, delete, modify or modify
 * DN carrying it is checked in full in its write transaction (existence, access, assertion, schema,
 * uniqueness, referential integrity), then the transaction is aborted instead of committed; where the
 * update would have succeeded the answer is noOperation (16654), otherwise the error it would have had.
 *
 * <p>The draft's control has no value; one with a value is protocolError. Anyone may send it: it
 * changes nothing and reveals no more than the operation itself would. Stateless and thread-safe.
 */
public final class NoOperation {
    /** The draft's OID (the UnboundID SDK's {@code DraftZeilengaLDAPNoOp12RequestControl}). */
    public static final String OID = "1.3.6.1.4.1.4203.1.10.2";
    /** The OID OpenLDAP 2.5 and later send for {@code -e noop} (its experimental arc). */
    public static final String OPENLDAP_OID = "1.3.6.1.4.1.4203.666.5.2";

    private NoOperation() {}

    /**
     * Whether {@code request} is an update that asks not to be committed.
     *
     * @throws ResultCodeException protocolError when the control carries a value
     */
    static boolean requested(Request request) {
        Control control = request.getControl(OID);
        if (control == null) {
            control = request.getControl(OPENLDAP_OID);
        }
        if (control == null) {
            return false;
        }
        switch (request.getType()) {
            case ADD_REQUEST, DEL_REQUEST, MODIFY_REQUEST, MODIFYDN_REQUEST -> {}
            default -> {
                return false;
            }
        }
        if (control instanceof OpaqueControl opaque && opaque.hasEncodedValue()) {
            throw new ResultCodeException(ResultCodeEnum.PROTOCOL_ERROR, "the no-op control takes no value");
        }
        return true;
    }

    /** {@code response}, a success of an update that was not committed, turned into noOperation. */
    static ResultResponse answer(ResultResponse response) {
        response.getLdapResult().setResultCode(WireResultCode.placeholder(WireResultCode.NO_OPERATION));
        response.getLdapResult().setDiagnosticMessage("no operation: the update would have succeeded; nothing changed");
        WireResultCode.set(response, WireResultCode.NO_OPERATION);
        return response;
    }
}
