package dev.larch.server.auth;

import dev.larch.server.access.AccessControl;
import dev.larch.server.auth.policy.BindPolicy;
import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.protocol.Operation;
import dev.larch.server.protocol.Session;
import dev.larch.server.protocol.WireResultCode;
import dev.larch.server.search.Filter;
import dev.larch.server.search.FilterCompiler;
import dev.larch.server.search.SearchPlanner;
import dev.larch.server.search.Tri;
import dev.larch.server.store.IdSet;
import dev.larch.server.store.ReadTxn;
import org.apache.directory.api.ldap.model.filter.EqualityNode;
import org.apache.directory.api.ldap.model.message.Control;
import org.apache.directory.api.ldap.model.message.Request;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.controls.ProxiedAuthz;
import org.apache.directory.api.ldap.model.name.Dn;

/**
 * Proxied authorization v2 (RFC 4370): an operation carrying the control runs as the identity its
 * authzId names, {@code dn:DN}, {@code u:uid} (looked up through the uid equality index, exactly one
 * entry) or empty for anonymous, when the requester may act as it: the administrator always, anyone
 * else with the ACI {@code proxy} right on that identity's entry, anonymous never; and when that
 * entry's account is usable (not locked, its password neither expired nor to be changed after a
 * reset, see {@link BindPolicy#mayActAs}). Otherwise the operation fails with authorizationDenied
 * (123), naming neither the identity's existence nor its rights nor its state. The bind of the
 * connection is untouched: the next operation runs as the requester again.
 *
 * <p>The identity acted as is always a stored entry or anonymous, never the administrator: an entry
 * whose DN equals the administrator's (OpenLDAP exports hold a {@code cn=admin} entry) has that
 * entry's rights only.
 *
 * <p>Thread-safe; each check opens one short read transaction.
 */
public final class ProxiedAuthorization {
    public static final String OID = ProxiedAuthz.OID;

    private final Directory directory;
    private final AccessControl access;
    private final FilterCompiler filters;
    private final SearchPlanner planner;
    private final BindPolicy accounts;

    /** @param accounts decides whether an entry's account may be acted as (locks, expiry) */
    public ProxiedAuthorization(
            Directory directory,
            AccessControl access,
            FilterCompiler filters,
            SearchPlanner planner,
            BindPolicy accounts) {
        this.directory = directory;
        this.access = access;
        this.filters = filters;
        this.planner = planner;
        this.accounts = accounts;
    }

    /**
     * {@code op} as it runs: itself when its request carries no proxied authorization control, else
     * the same operation with the session of the identity acted as.
     *
     * @throws ResultCodeException authorizationDenied (123), or protocolError for a malformed authzId
     */
    public Operation apply(Operation op) {
        Request request = op.request();
        Control control = request.getControl(OID);
        if (control == null) {
            return op;
        }
        if (!(control instanceof ProxiedAuthz proxied)) {
            throw new ResultCodeException(ResultCodeEnum.PROTOCOL_ERROR, "malformed proxied authorization control");
        }
        Session requester = op.session();
        String authzId = proxied.getAuthzId() == null ? "" : proxied.getAuthzId();
        if (authzId.isEmpty()) {
            if (requester.isAnonymous()) {
                throw denied();
            }
            return new ActingOperation(op, requester.actingAs(Dn.EMPTY_DN));
        }
        try (ReadTxn txn = directory.store().read()) {
            StoredEntry target = identity(txn, authzId);
            if (target == null || !access.mayProxy(requester, txn, target) || !accounts.mayActAs(txn, target)) {
                throw denied();
            }
            return new ActingOperation(
                    op, requester.actingAs(directory.schemaNormalizer().dn(target.dn())));
        }
    }

    /** The entry {@code authzId} names; null when none (or, for u:, not exactly one). */
    private StoredEntry identity(ReadTxn txn, String authzId) {
        if (authzId.startsWith("dn:")) {
            Dn dn;
            try {
                dn = directory.schemaNormalizer().dn(authzId.substring(3));
            } catch (RuntimeException e) {
                throw new ResultCodeException(ResultCodeEnum.PROTOCOL_ERROR, "malformed authzId: not a DN");
            }
            long id = directory.resolve(txn, dn);
            return id == ReadTxn.NOT_FOUND ? null : directory.load(txn, id);
        }
        if (authzId.startsWith("u:")) {
            Filter byUid = filters.compile(new EqualityNode<>("uid", authzId.substring(2)));
            IdSet ids = planner.plan(txn, byUid).ids();
            StoredEntry found = null;
            for (int i = 0; ids != null && i < ids.size(); i++) {
                StoredEntry entry = directory.load(txn, ids.get(i));
                if (entry != null && byUid.evaluate(entry) == Tri.TRUE) {
                    if (found != null) {
                        return null; // ambiguous: nobody
                    }
                    found = entry;
                }
            }
            return found;
        }
        throw new ResultCodeException(ResultCodeEnum.PROTOCOL_ERROR, "malformed authzId: expected dn: or u:");
    }

    private static ResultCodeException denied() {
        return ResultCodeException.withWireCode(
                WireResultCode.AUTHORIZATION_DENIED, "not authorized to act as the proxied identity");
    }
}
