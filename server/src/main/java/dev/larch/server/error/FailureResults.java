package dev.larch.server.error;

import dev.larch.server.protocol.WireResultCode;
import dev.larch.server.store.ChangeTooLargeException;
import dev.larch.server.store.ReadersFullException;
import dev.larch.server.store.StoreClosedException;
import dev.larch.server.store.StoreFullException;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.exception.LdapInvalidAttributeValueException;
import org.apache.directory.api.ldap.model.exception.LdapInvalidDnException;
import org.apache.directory.api.ldap.model.exception.LdapNoSuchAttributeException;
import org.apache.directory.api.ldap.model.exception.LdapOperationException;
import org.apache.directory.api.ldap.model.message.LdapResult;
import org.apache.directory.api.ldap.model.message.Referral;
import org.apache.directory.api.ldap.model.message.ReferralImpl;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place that turns any failure into a result code, matched DN and safe message.
 * Unexpected exceptions are logged with their cause and reach the client as {@code other}
 * with a generic message: clients never see stack traces or internal text.
 */
public final class FailureResults {
    private static final Logger LOG = LoggerFactory.getLogger(FailureResults.class);

    private FailureResults() {}

    /** Maps {@code failure} to a {@link ResultCodeException}, logging it if it was not expected. */
    public static ResultCodeException toResultCodeException(Throwable failure) {
        if (failure instanceof ResultCodeException e) {
            return e;
        }
        if (failure instanceof LdapInvalidDnException e) {
            return new ResultCodeException(ResultCodeEnum.INVALID_DN_SYNTAX, "invalid DN: " + safe(e.getMessage()));
        }
        if (failure instanceof LdapInvalidAttributeValueException e) {
            return new ResultCodeException(ResultCodeEnum.INVALID_ATTRIBUTE_SYNTAX, safe(e.getMessage()));
        }
        if (failure instanceof LdapNoSuchAttributeException e) {
            return new ResultCodeException(ResultCodeEnum.UNDEFINED_ATTRIBUTE_TYPE, safe(e.getMessage()));
        }
        if (failure instanceof LdapOperationException e && e.getResultCode() != null) {
            return new ResultCodeException(e.getResultCode(), safe(e.getMessage()), e.getResolvedDn());
        }
        if (failure instanceof LdapException e) {
            return new ResultCodeException(ResultCodeEnum.OTHER, safe(e.getMessage()));
        }
        if (failure instanceof ReadersFullException) {
            LOG.warn("all LMDB read slots are in use; raise storage.max-readers");
            return new ResultCodeException(ResultCodeEnum.BUSY, "too many concurrent searches; try again");
        }
        if (failure instanceof StoreFullException e) {
            // One line, no stack trace: a full store repeats for every write until an operator acts.
            LOG.error("write refused: {}", e.getMessage());
            return new ResultCodeException(ResultCodeEnum.UNWILLING_TO_PERFORM, e.clientMessage());
        }
        if (failure instanceof ChangeTooLargeException e) {
            LOG.warn("write refused: {}", e.getMessage());
            return new ResultCodeException(ResultCodeEnum.UNWILLING_TO_PERFORM, e.clientMessage());
        }
        if (failure instanceof StoreClosedException) {
            return new ResultCodeException(ResultCodeEnum.UNAVAILABLE, "server is shutting down");
        }
        LOG.error("unexpected failure while serving a request", failure);
        return new ResultCodeException(ResultCodeEnum.OTHER, "internal server error");
    }

    /** Fills {@code response}'s result from {@code failure}. */
    public static <R extends ResultResponse> R fill(R response, Throwable failure) {
        ResultCodeException error = toResultCodeException(failure);
        LdapResult result = response.getLdapResult();
        result.setResultCode(error.code());
        result.setDiagnosticMessage(error.getMessage());
        if (!error.matchedDn().isEmpty()) {
            result.setMatchedDn(error.matchedDn());
        }
        if (!error.referrals().isEmpty()) {
            Referral referral = new ReferralImpl();
            error.referrals().forEach(referral::addLdapUrl);
            result.setReferral(referral);
        }
        if (error.wireCode() != 0) {
            WireResultCode.set(response, error.wireCode());
        }
        return response;
    }

    /**
     * A library message made fit for a client: without the Apache API's internal code prefix
     * ("ERR_05132_INVALID_ROOT_DN "), its hex dump of the input and anything past the first line.
     */
    public static String safe(String message) {
        if (message == null) {
            return "";
        }
        String m = message.replaceFirst("^ERR_\\d+_?\\w*\\s*", "");
        int newline = m.indexOf('\n');
        m = newline >= 0 ? m.substring(0, newline) : m;
        int dump = m.indexOf(" (0x");
        if (dump >= 0) {
            m = m.substring(0, dump);
        }
        return m.strip().replaceFirst("\"$", "");
    }
}
