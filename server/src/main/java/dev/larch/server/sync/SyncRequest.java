package dev.larch.server.sync;

import org.apache.directory.api.ldap.extras.controls.syncrepl.syncRequest.SyncRequestValue;
import org.apache.directory.api.ldap.model.message.Control;
import org.apache.directory.api.ldap.model.message.Request;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.controls.OpaqueControl;

/**
 * What a search's Sync Request control (RFC 4533 section 2.2, 1.3.6.1.4.1.4203.1.9.1.1) asks for.
 *
 * <p>Read from the control as the codec delivered it: decoded by the Apache factory
 * ({@link SyncRequestValue}), or opaque once {@link SyncRequestControlFactory#install} has replaced that
 * factory so that a malformed value reaches the handler instead of failing the whole PDU; the value is
 * then read here, strictly ({@link SyncRequestValueReader}). Either way a control the server cannot act on is a {@link SyncControlException} with
 * protocolError, as slapd's syncprov answers it (whatever the criticality: the control is understood,
 * its value is wrong): an absent or undecodable value, a mode other than refreshOnly (1) or
 * refreshAndPersist (3), a malformed cookie. An empty cookie is no cookie (RFC 4533 section 2.1.2; slapd
 * also reloads for it).
 *
 * @param mode what the consumer asked for
 * @param cookie the consumer's state; null when it sent none (a full refresh)
 * @param reloadHint whether the consumer accepts a full (present-phase) refresh rather than
 *     e-syncRefreshRequired
 * @param critical the control's criticality
 */
public record SyncRequest(Mode mode, SyncCookie cookie, boolean reloadHint, boolean critical) {

    public static final String OID = SyncRequestValue.OID;

    /** The two modes of RFC 4533 section 2.2. */
    public enum Mode {
        REFRESH_ONLY,
        REFRESH_AND_PERSIST
    }

    /** Whether the consumer sent a cookie. */
    public boolean hasCookie() {
        return cookie != null;
    }

    /**
     * The Sync Request of {@code request}; null when it carries no Sync Request control.
     *
     * @throws SyncControlException protocolError when the control's value cannot be acted on
     */
    public static SyncRequest from(Request request) {
        Control control = request.getControl(OID);
        return control == null ? null : from(control);
    }

    /**
     * The Sync Request of {@code control}, a control of OID {@value #OID}.
     *
     * @throws SyncControlException protocolError when its value cannot be acted on
     */
    public static SyncRequest from(Control control) {
        if (control instanceof SyncRequestValue decoded) {
            int mode = decoded.getMode() == null ? 0 : decoded.getMode().getValue();
            return of(mode, decoded.getCookie(), decoded.isReloadHint(), control.isCritical());
        }
        if (!(control instanceof OpaqueControl opaque)) {
            throw failure("the control is not a Sync Request");
        }
        if (!opaque.hasEncodedValue()) {
            throw failure("the control has no value");
        }
        if (opaque.getEncodedValue().length == 0) {
            throw failure("the control's value is empty");
        }
        SyncRequestValueReader.Value value;
        try {
            value = SyncRequestValueReader.read(opaque.getEncodedValue());
        } catch (SyncRequestValueReader.MalformedException e) {
            throw failure("the value is not a syncRequestValue: " + e.getMessage());
        }
        return of(value.mode(), value.cookie(), value.reloadHint(), control.isCritical());
    }

    private static SyncRequest of(int mode, byte[] cookie, boolean reloadHint, boolean critical) {
        SyncCookie parsed;
        try {
            parsed = cookie == null || cookie.length == 0 ? null : SyncCookie.parse(cookie);
        } catch (MalformedCookieException e) {
            throw failure(e.getMessage());
        }
        return new SyncRequest(mode(mode), parsed, reloadHint, critical);
    }

    private static Mode mode(int mode) {
        return switch (mode) {
            case 1 -> Mode.REFRESH_ONLY;
            case 3 -> Mode.REFRESH_AND_PERSIST;
            default ->
                throw failure("unknown mode " + mode + "; refreshOnly (1) and refreshAndPersist (3) are the modes");
        };
    }

    private static SyncControlException failure(String why) {
        return new SyncControlException(ResultCodeEnum.PROTOCOL_ERROR, "Sync Request control: " + why);
    }
}
