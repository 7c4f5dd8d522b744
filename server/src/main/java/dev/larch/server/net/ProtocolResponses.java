package dev.larch.server.net;

import org.apache.directory.api.ldap.model.message.ExtendedResponse;
import org.apache.directory.api.ldap.model.message.LdapResult;
import org.apache.directory.api.ldap.model.message.OpaqueExtendedResponse;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.message.ResultResponseRequest;
import org.apache.directory.api.ldap.model.message.extended.NoticeOfDisconnect;

/**
 * Builds error responses the protocol layer sends on its own. Messages are short and fixed or derived
 * from the input; never an exception's text or stack trace.
 */
public final class ProtocolResponses {

    /** RFC 4511 §4.4.1. */
    public static final String NOTICE_OF_DISCONNECTION_OID = NoticeOfDisconnect.EXTENSION_OID;

    private ProtocolResponses() {}

    /**
     * The final response type that answers {@code request} (SearchResultDone for a search, and so on),
     * carrying its message ID, {@code code} and {@code message}.
     */
    public static ResultResponse responseFor(ResultResponseRequest request, ResultCodeEnum code, String message) {
        ResultResponse response = request.getResultResponse();
        LdapResult result = response.getLdapResult();
        result.setResultCode(code);
        result.setDiagnosticMessage(message);
        return response;
    }

    /**
     * An unsolicited Notice of Disconnection (message ID 0); {@code code} is protocolError,
     * unavailable or strongerAuthRequired. A fresh instance each time (the API's own constants are
     * shared and mutable).
     */
    public static ExtendedResponse noticeOfDisconnection(ResultCodeEnum code, String message) {
        OpaqueExtendedResponse notice = new OpaqueExtendedResponse(0, NOTICE_OF_DISCONNECTION_OID);
        notice.getLdapResult().setResultCode(code);
        notice.getLdapResult().setDiagnosticMessage(message);
        return notice;
    }
}
