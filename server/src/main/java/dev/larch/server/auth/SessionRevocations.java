package dev.larch.server.auth;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import dev.larch.server.directory.SchemaNormalizer;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.protocol.Session;
import org.apache.directory.api.ldap.extras.extended.pwdModify.PasswordModifyRequest;
import org.apache.directory.api.ldap.model.entry.Modification;
import org.apache.directory.api.ldap.model.entry.ModificationOperation;
import org.apache.directory.api.ldap.model.message.DeleteRequest;
import org.apache.directory.api.ldap.model.message.ModifyDnRequest;
import org.apache.directory.api.ldap.model.message.ModifyRequest;
import org.apache.directory.api.ldap.model.message.Request;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.name.Dn;
import org.apache.directory.api.ldap.model.schema.AttributeType;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * Open sessions lose their identity when a write takes it away: their entry (or an ancestor) deleted
 * or renamed, a {@code pwdAccountLockedTime} written to it, or its password set by someone other than
 * its owner (an administrator's reset, by modify or Password Modify). Such a session's next operation,
 * and every one after, runs as anonymous until it binds again; the administrator's identity is never
 * taken this way. A lock set by failed binds does not end open sessions (else anyone could end a
 * user's sessions by failing binds as them): it refuses new binds only.
 *
 * <p>Sessions are not tracked: each carries the number of its bind ({@link Session#bindSequence}), a
 * write records the latest bind number when it succeeds, and {@link #check} compares them before each
 * operation; a session bound after the latest revocation keeps its identity whatever was revoked, so
 * for it (and while nothing was revoked) that is one comparison. At most {@value #MAX_REVOKED} DNs
 * are remembered; beyond that every named session bound until then loses its identity (fails closed).
 * Thread-safe.
 */
public final class SessionRevocations {
    static final int MAX_REVOKED = 10_000;
    private static final String ACCOUNT_LOCKED_TIME_OID = "1.3.6.1.4.1.42.2.27.8.1.17";

    private final SchemaNormalizer schemaNormalizer;
    /** Normalized DN to the latest bind number when it was revoked. */
    private final ConcurrentHashMap<String, Long> revoked = new ConcurrentHashMap<>();
    /** Every named session bound by this bind number or earlier has lost its identity; 0 for none. */
    private volatile long watermark;
    /**
     * The latest bind number any DN was revoked at; a session bound after it cannot match an entry of
     * {@link #revoked}, so {@link #check} skips walking its DN's ancestors (a map look-up and a
     * parent DN made at each level: 1.4% of the server's CPU under authrate after 1,000 password
     * resets, async-profiler itimer).
     */
    private final AtomicLong latestRevocation = new AtomicLong();

    public SessionRevocations(SchemaNormalizer schemaNormalizer) {
        this.schemaNormalizer = schemaNormalizer;
    }

    /** Before an operation of {@code session}: makes it anonymous when its identity was taken away. */
    public void check(Session session) {
        if (session.isAnonymous() || session.isAdmin()) {
            return;
        }
        long bound = session.bindSequence();
        if (bound > latestRevocation.get()) {
            return;
        }
        if (bound <= watermark) {
            session.forgetIdentityBoundBy(watermark);
            return;
        }
        for (Dn dn = session.boundDn(); dn != null && !dn.isEmpty(); dn = dn.getParent()) {
            Long at = revoked.get(dn.getNormName());
            if (at != null && bound <= at) {
                session.forgetIdentityBoundBy(at);
                return;
            }
        }
    }

    /**
     * After a write by {@code writer} was answered {@code response} (called before the client sees
     * it): records the identity it takes away, if any.
     */
    public void written(Session writer, Request request, ResultResponse response) {
        if (response.getLdapResult().getResultCode() != ResultCodeEnum.SUCCESS) {
            return;
        }
        try {
            Dn taken = switch (request) {
                case DeleteRequest r -> schemaNormalizer.dn(r.getName());
                case ModifyDnRequest r -> schemaNormalizer.dn(r.getName());
                case ModifyRequest r -> modified(writer, r);
                case PasswordModifyRequest r -> passwordSet(writer, r);
                default -> null;
            };
            if (taken != null) {
                revoke(taken);
            }
        } catch (ResultCodeException e) {
            // The write succeeded, so its DN parsed; if it no longer does, end every session rather than guess.
            long at = Session.bindsSoFar();
            latestRevocation.accumulateAndGet(at, Math::max);
            watermark = at;
        }
    }

    private Dn modified(Session writer, ModifyRequest request) {
        Dn target = schemaNormalizer.dn(request.getName());
        for (Modification mod : request.getModifications()) {
            AttributeType type = schemaNormalizer.typeOrNull(mod.getAttribute().getUpId());
            String oid = type == null ? "" : type.getOid();
            boolean sets = mod.getOperation() != ModificationOperation.REMOVE_ATTRIBUTE
                    && mod.getAttribute().size() > 0;
            if (oid.equals(ACCOUNT_LOCKED_TIME_OID) && sets) {
                return target;
            }
            if (oid.equals(PasswordAttributes.USER_PASSWORD_OID) && !target.equals(writer.boundDn())) {
                return target;
            }
        }
        return null;
    }

    private Dn passwordSet(Session writer, PasswordModifyRequest request) {
        byte[] identity = request.getUserIdentity();
        if (identity == null || identity.length == 0) {
            return null; // one's own password
        }
        Dn target = schemaNormalizer.dn(new String(identity, UTF_8));
        return target.equals(writer.boundDn()) ? null : target;
    }

    private void revoke(Dn dn) {
        long at = Session.bindsSoFar();
        // Raised before the DN is remembered: a check in between walks the map and may miss it, as
        // it would have had it run a moment earlier; it never skips a DN it could find.
        latestRevocation.accumulateAndGet(at, Math::max);
        if (revoked.size() >= MAX_REVOKED) {
            watermark = at;
            revoked.clear();
            return;
        }
        revoked.merge(dn.getNormName(), at, Math::max);
    }
}
