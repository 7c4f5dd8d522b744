package dev.larch.server.control;

import dev.larch.server.access.AccessControl;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.protocol.Session;
import dev.larch.server.protocol.WireResultCode;
import dev.larch.server.search.BerFilter;
import dev.larch.server.search.ControlFilterLimits;
import dev.larch.server.search.Filter;
import dev.larch.server.search.FilterCompiler;
import dev.larch.server.search.Tri;
import dev.larch.server.store.ReadTxn;
import org.apache.directory.api.ldap.model.filter.ExprNode;
import org.apache.directory.api.ldap.model.message.Control;
import org.apache.directory.api.ldap.model.message.Request;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.controls.OpaqueControl;

/**
 * The assertion control (RFC 4528): the operation goes ahead only if its filter is true for the
 * target entry (the base of a search, the entry compared, modified, renamed or deleted), judged in the
 * operation's own transaction as the client may judge it; otherwise assertionFailed (122) and nothing
 * changes. The control is no oracle: an entry the client may not read answers noSuchObject, exactly as
 * a missing one (before the filter is looked at), and an attribute value it may not read is judged
 * absent (as is a memberOf value naming a group it may not read), so assertionFailed comes exactly
 * when it would for an entry without the hidden values. The filter is held to the bounds of a search
 * filter ({@link ControlFilterLimits}).
 *
 * <p>The Apache API ships no codec for it: the value, a BER Filter, is decoded by {@link BerFilter};
 * a value that is not a filter is protocolError.
 *
 * <p>Thread-safe.
 */
public final class AssertionControl {
    public static final String OID = "1.3.6.1.1.12";

    private final FilterCompiler filters;
    private final AccessControl access;

    public AssertionControl(FilterCompiler filters, AccessControl access) {
        this.filters = filters;
        this.access = access;
    }

    /** Whether {@code request} carries the control: only then does {@link #require} need its target. */
    public static boolean carriedBy(Request request) {
        return request.getControl(OID) != null;
    }

    /**
     * Refuses the operation unless {@code request}'s assertion holds for {@code target}; does nothing
     * when it carries none.
     *
     * @throws ResultCodeException assertionFailed (122), or protocolError for a malformed value
     */
    public void require(Request request, Session session, ReadTxn txn, StoredEntry target) {
        Control control = request.getControl(OID);
        if (control == null) {
            return;
        }
        ExprNode node = filterOf(control);
        if (!access.mayRead(session, txn, target)) {
            // Judged after access: an entry the client may not read answers as an absent one would.
            throw access.noSuchObject(session, txn, target);
        }
        Filter filter = filters.compile(node);
        if (filter.evaluate(access.readableView(session, txn, target)) != Tri.TRUE) {
            throw ResultCodeException.withWireCode(
                    WireResultCode.ASSERTION_FAILED, "the assertion control's filter is not true for the entry");
        }
    }

    private static ExprNode filterOf(Control control) {
        byte[] value = control instanceof OpaqueControl opaque ? opaque.getEncodedValue() : null;
        ControlFilterLimits.check("assertion", value);
        ExprNode filter = BerFilter.decode(value);
        if (filter == null) {
            throw malformed();
        }
        return filter;
    }

    private static ResultCodeException malformed() {
        return new ResultCodeException(ResultCodeEnum.PROTOCOL_ERROR, "the assertion control's value is not a filter");
    }
}
