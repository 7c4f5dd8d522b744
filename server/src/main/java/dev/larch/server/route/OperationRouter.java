package dev.larch.server.route;

import dev.larch.server.auth.ActingOperation;
import dev.larch.server.auth.BindHandler;
import dev.larch.server.auth.ProxiedAuthorization;
import dev.larch.server.auth.SessionRevocations;
import dev.larch.server.auth.policy.MustChangeGate;
import dev.larch.server.directory.Directory;
import dev.larch.server.error.FailureResults;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.protocol.Operation;
import dev.larch.server.protocol.RequestHandler;
import dev.larch.server.protocol.Session;
import dev.larch.server.read.CompareHandler;
import dev.larch.server.read.SearchHandler;
import dev.larch.server.read.VirtualEntries;
import dev.larch.server.read.sync.SyncSearches;
import dev.larch.server.referral.ReferralGate;
import dev.larch.server.referral.UpdateReferral;
import dev.larch.server.write.AddHandler;
import dev.larch.server.write.DeleteHandler;
import dev.larch.server.write.ModifyDnHandler;
import dev.larch.server.write.ModifyHandler;
import dev.larch.server.write.PasswordModifyHandler;
import org.apache.directory.api.ldap.model.message.AddRequest;
import org.apache.directory.api.ldap.model.message.BindRequest;
import org.apache.directory.api.ldap.model.message.CompareRequest;
import org.apache.directory.api.ldap.model.message.DeleteRequest;
import org.apache.directory.api.ldap.model.message.ExtendedRequest;
import org.apache.directory.api.ldap.model.message.ModifyDnRequest;
import org.apache.directory.api.ldap.model.message.ModifyRequest;
import org.apache.directory.api.ldap.model.message.Request;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.message.ResultResponseRequest;
import org.apache.directory.api.ldap.model.message.SearchRequest;
import org.apache.directory.api.ldap.model.name.Dn;

/**
 * Sends each request to the handler for its operation and turns any failure into the
 * operation's response through {@link FailureResults}.
 */
public final class OperationRouter implements RequestHandler {
    private final BindHandler bind;
    private final SearchHandler search;
    private final CompareHandler compare;
    private final AddHandler add;
    private final DeleteHandler delete;
    private final ModifyHandler modify;
    private final ModifyDnHandler modifyDn;
    private final ExtendedHandler extended;
    /** Null when no password policy is enforced. */
    private final MustChangeGate mustChange;

    private final SupportedControls controls;
    /** Null when proxied authorization is not offered. */
    private final ProxiedAuthorization proxied;
    /** Null when referral objects are ordinary entries for everyone. */
    private final ReferralGate referrals;

    private final UpdateReferral updates;
    /** Null when a connection needs neither strength nor authentication. */
    private final SessionRequirements requirements;
    /** Null when writes never end other sessions' identities (tools, tests). */
    private final SessionRevocations revocations;
    /** Null when the store is never loaded in bulk under a running server (no provider). */
    private final LoadingGate loading;

    /**
     * @param mustChange holds back sessions that must change a reset password; null for none
     * @param passwordModify the Password Modify extended operation; null to refuse it as unsupported
     * @param controls the controls offered; a request with any other critical control is refused
     * @param proxied proxied authorization (RFC 4370); null when not offered
     * @param referrals answers operations on referral objects with referrals (RFC 3296); null for none
     * @param updates refers every write to the providers of a read-only replica; null when this server
     *     takes writes
     * @param minSsf {@code security.min-ssf}: the strength a connection needs for most operations
     * @param allowAnonymous {@code security.allow-anonymous}
     * @param revocations takes their identity from sessions whose account a write locked, deleted or
     *     reset; null for none
     * @param loading the directory, whose store a replica's first refresh may load in bulk, and the
     *     administrator's DN: requests that need the tree are turned away meanwhile ({@link
     *     LoadingGate}); null when this server has no provider
     */
    public OperationRouter(
            BindHandler bind,
            SearchHandler search,
            CompareHandler compare,
            AddHandler add,
            DeleteHandler delete,
            ModifyHandler modify,
            ModifyDnHandler modifyDn,
            MustChangeGate mustChange,
            PasswordModifyHandler passwordModify,
            SupportedControls controls,
            ProxiedAuthorization proxied,
            ReferralGate referrals,
            UpdateReferral updates,
            int minSsf,
            boolean allowAnonymous,
            SessionRevocations revocations,
            LoadingGateSettings loading) {
        SessionRequirements required = new SessionRequirements(minSsf, allowAnonymous);
        this.requirements = required.any() ? required : null;
        this.referrals = referrals;
        this.updates = updates;
        this.revocations = revocations;
        this.loading = loading == null ? null : new LoadingGate(loading.directory(), loading.admin());
        this.proxied = proxied;
        this.controls = controls;
        this.mustChange = mustChange;
        this.extended = new ExtendedHandler(passwordModify);
        this.bind = bind;
        this.search = search;
        this.compare = compare;
        this.add = add;
        this.delete = delete;
        this.modify = modify;
        this.modifyDn = modifyDn;
    }

    /** What {@link LoadingGate} needs: the directory and the administrator's DN (schema-aware). */
    public record LoadingGateSettings(Directory directory, Dn admin) {}

    /** The content-synchronization searches served, for monitoring; null when none are. */
    public SyncSearches syncSearches() {
        return search.syncSearches();
    }

    /** Requests that change the directory, and so may wait in the write queue. */
    private static boolean isWrite(Request request) {
        return switch (request) {
            case AddRequest r -> true;
            case DeleteRequest r -> true;
            case ModifyRequest r -> true;
            case ModifyDnRequest r -> true;
            case ExtendedRequest r -> VirtualEntries.PASSWORD_MODIFY_OID.equals(r.getRequestName());
            default -> false;
        };
    }

    @Override
    public void handle(Operation received) {
        Request request = received.request();
        Operation op = received;
        try {
            if (revocations != null) {
                revocations.check(received.session());
            }
            controls.screen(request);
            if (requirements != null) {
                requirements.check(received.session(), request);
            }
            // The requester's own state first: one who must change a reset password may not proxy.
            ResultResponse refusal = mustChange == null ? null : mustChange.refusal(received.session(), request);
            if (refusal != null) {
                received.complete(refusal);
                return;
            }
            if (updates != null && isWrite(request)) {
                throw updates.referral();
            }
            if (loading != null) {
                loading.check(request);
            }
            if (isWrite(request)) {
                // Who performs a write is decided now, as it is admitted: a rebind while it waits in the
                // write queue (a pooled connection handed to another user) must not change it.
                op = new ActingOperation(received, received.session().admitted());
            }
            if (proxied != null && !(request instanceof BindRequest)) {
                op = proxied.apply(op);
            }
            if (revocations != null && isWrite(request)) {
                Session writer = op.session();
                op = new ActingOperation(op, writer, response -> revocations.written(writer, request, response));
            }
            if (referrals != null) {
                // After proxied authorization: whether the referral may be shown is the proxied identity's call.
                referrals.check(op.session(), request);
            }
            switch (request) {
                case BindRequest r -> bind.handle(op, r);
                case SearchRequest r -> search.handle(op, r);
                case CompareRequest r -> compare.handle(op, r);
                case AddRequest r -> add.handle(op, r);
                case DeleteRequest r -> delete.handle(op, r);
                case ModifyRequest r -> modify.handle(op, r);
                case ModifyDnRequest r -> modifyDn.handle(op, r);
                case ExtendedRequest r -> extended.handle(op, r);
                default -> throw new ResultCodeException(ResultCodeEnum.PROTOCOL_ERROR, "unsupported operation");
            }
        } catch (Throwable failure) {
            if (request instanceof ResultResponseRequest r) {
                op.complete(FailureResults.fill(r.getResultResponse(), failure));
            }
        }
    }
}
