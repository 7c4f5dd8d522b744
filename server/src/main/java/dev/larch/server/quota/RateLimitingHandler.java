package dev.larch.server.quota;

import java.util.function.LongSupplier;

import dev.larch.config.RateQuotas;
import dev.larch.server.protocol.ConnectionEvent;
import dev.larch.server.protocol.Operation;
import dev.larch.server.protocol.RequestHandler;
import dev.larch.server.protocol.Session;
import org.apache.directory.api.ldap.model.message.BindRequest;
import org.apache.directory.api.ldap.model.message.LdapResult;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.message.ResultResponseRequest;

/**
 * Wraps a {@link RequestHandler} and answers busy, with a message naming the quota, every request
 * over the per-address or per-identity rate quota ({@link RateQuotas}); other requests pass on
 * unchanged. Install it inside the access log's decorator, so refused requests are logged like any
 * other.
 *
 * <p>What counts: every request this handler sees (abandon and unbind never reach a handler).
 * Every request counts against the client address's bucket; every request but a bind of a session
 * bound to an identity counts against that identity's bucket, over all its connections. A bind counts
 * against the address only: whom it binds is known only once it succeeds. A session bound as the
 * administrator is exempt unless {@link RateQuotas#applyToAdmin()}. A request refused by the address
 * quota takes no identity token; one refused by the identity quota has spent its address token.
 *
 * <p>Thread-safe, without a global lock: one instance serves every connection from every event loop.
 * Memory is bounded per quota, see {@link BucketTable}.
 */
public final class RateLimitingHandler implements RequestHandler {

    private final RequestHandler next;
    private final RateQuota perAddress;
    private final RateQuota perIdentity;
    private final boolean applyToAdmin;
    private final LongSupplier clock;

    /**
     * {@code next} wrapped in the quotas, or {@code next} itself when no quota is set, so that a server
     * without quotas does no work for them.
     */
    public static RequestHandler around(RequestHandler next, RateQuotas quotas) {
        if (!quotas.enabled()) {
            return next;
        }
        return new RateLimitingHandler(next, quotas, BucketTable.DEFAULT_MAX_KEYS, System::nanoTime);
    }

    /**
     * @param maxKeys most keys each quota tracks
     * @param clock nanosecond time, as {@link System#nanoTime()}
     */
    RateLimitingHandler(RequestHandler next, RateQuotas quotas, int maxKeys, LongSupplier clock) {
        this.next = next;
        this.clock = clock;
        this.applyToAdmin = quotas.applyToAdmin();
        long now = clock.getAsLong();
        this.perAddress = quotas.perAddress() == 0
                ? null
                : new RateQuota(
                        quotas.perAddress(),
                        quotas.burstSeconds(),
                        "client address",
                        "limits.rate-per-address",
                        maxKeys,
                        now);
        this.perIdentity = quotas.perIdentity() == 0
                ? null
                : new RateQuota(
                        quotas.perIdentity(),
                        quotas.burstSeconds(),
                        "identity",
                        "limits.rate-per-identity",
                        maxKeys,
                        now);
    }

    @Override
    public void handle(Operation operation) {
        RateQuota exceeded = exceededQuota(operation);
        if (exceeded != null && operation.request() instanceof ResultResponseRequest request) {
            ResultResponse response = request.getResultResponse();
            LdapResult result = response.getLdapResult();
            result.setResultCode(ResultCodeEnum.BUSY);
            result.setDiagnosticMessage(exceeded.exceededMessage());
            operation.complete(response);
            return;
        }
        next.handle(operation);
    }

    /** The first quota {@code operation} is over, after counting it; null when it may run. */
    private RateQuota exceededQuota(Operation operation) {
        Session session = operation.session();
        if (session.isAdmin() && !applyToAdmin) {
            return null;
        }
        long now = clock.getAsLong();
        if (perAddress != null && !perAddress.tryTake(QuotaKey.ofAddress(session.remoteAddress()), now)) {
            return perAddress;
        }
        boolean hasIdentity = !session.isAnonymous() && !(operation.request() instanceof BindRequest);
        if (perIdentity != null && hasIdentity && !perIdentity.tryTake(QuotaKey.ofIdentity(session.boundDn()), now)) {
            return perIdentity;
        }
        return null;
    }

    @Override
    public void ended(Operation operation, ResultResponse response) {
        next.ended(operation, response);
    }

    @Override
    public void connectionEvent(Session session, ConnectionEvent event) {
        next.connectionEvent(session, event);
    }
}
