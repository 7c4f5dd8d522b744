package dev.larch.server.read;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

import dev.larch.config.ResultControls;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.protocol.Session;
import org.apache.directory.api.ldap.model.message.Control;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.SearchRequest;
import org.apache.directory.api.ldap.model.message.controls.PagedResults;
import org.apache.directory.api.ldap.model.name.Dn;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * Simple paged results (RFC 2696) for every connection: turns a search request's paged control into
 * the {@link PagedSearch} that bounds its page and says where it resumes.
 *
 * <p>Who may page: anyone who may search; every page is a search of its own for the access rules,
 * the look-through limit and the time limit, and the server's size limit caps the page size. What
 * bounds it: each connection keeps at most {@code limits.max-paged-searches-per-connection} open
 * paged searches of a few hundred bytes each (no read transaction between pages); {@code
 * limits.paged-size-limit} caps the entries of one paged search over all its pages. A cookie works
 * once, on the connection it was given to, for the request it was given for; anything else is
 * refused with unwillingToPerform.
 *
 * <p>Thread-safe.
 */
public final class Paging {
    public static final String OID = PagedResults.OID;

    private final ResultControls bounds;

    public Paging(ResultControls bounds) {
        this.bounds = bounds;
    }

    /**
     * The paging of {@code request}; null when it carries no paged results control.
     *
     * @param base the request's base, schema-normalized
     * @param serverSizeLimit the server's size limit for this session (0 = none): the page size cap
     * @throws ResultCodeException unwillingToPerform for a cookie this connection does not hold for
     *     this request, protocolError for a negative page size
     */
    PagedSearch start(Session session, SearchRequest request, Dn base, int serverSizeLimit) {
        if (!(request.getControl(OID) instanceof PagedResults control)) {
            return null;
        }
        if (control.getSize() < 0) {
            throw new ResultCodeException(
                    ResultCodeEnum.PROTOCOL_ERROR, "paged results control with a negative page size");
        }
        OpenPagedSearches open = session.attachment(
                OpenPagedSearches.class, () -> new OpenPagedSearches(bounds.maxPagedSearchesPerConnection()));
        byte[] digest = digest(request, base);
        OpenPagedSearches.Saved resumed = null;
        byte[] cookie = control.getCookie();
        if (cookie != null && cookie.length > 0) {
            resumed = cookie.length == Long.BYTES
                    ? open.take(ByteBuffer.wrap(cookie).getLong())
                    : null;
            if (resumed == null) {
                throw new ResultCodeException(
                        ResultCodeEnum.UNWILLING_TO_PERFORM,
                        "unknown paged results cookie: it was used already, belongs to another connection, or was"
                                + " forgotten (limits.max-paged-searches-per-connection); start the search again");
            }
            if (!Arrays.equals(resumed.requestDigest(), digest)) {
                throw new ResultCodeException(
                        ResultCodeEnum.UNWILLING_TO_PERFORM,
                        "the paged results cookie belongs to a different search request; send the same request"
                                + " with the cookie, or start the search again without one");
            }
        }
        int pageSize = control.getSize();
        if (serverSizeLimit > 0 && pageSize > serverSizeLimit) {
            pageSize = serverSizeLimit;
        }
        long requested = Math.max(0, request.getSizeLimit());
        boolean clientLimitRules =
                requested > 0 && (bounds.pagedSizeLimit() == 0 || requested <= bounds.pagedSizeLimit());
        long totalLimit = clientLimitRules ? requested : bounds.pagedSizeLimit();
        return new PagedSearch(
                open,
                digest,
                pageSize,
                resumed == null ? null : resumed.resume(),
                resumed == null ? 0 : resumed.sentBefore(),
                totalLimit,
                clientLimitRules ? "requested by the client" : "limits.paged-size-limit");
    }

    /**
     * What ties a cookie to its request: everything the client must send again unchanged (RFC 2696
     * section 3), hashed so a large filter costs 32 bytes per open search.
     */
    private static byte[] digest(SearchRequest request, Dn base) {
        StringBuilder canonical = new StringBuilder(256)
                .append(base.getNormName())
                .append('\u0000')
                .append(request.getScope().getScope())
                .append('\u0000')
                .append(request.getDerefAliases().getValue())
                .append('\u0000')
                .append(request.getSizeLimit())
                .append('\u0000')
                .append(request.getTimeLimit())
                .append('\u0000')
                .append(request.getTypesOnly())
                .append('\u0000')
                .append(request.getFilter())
                .append('\u0000')
                .append(request.getAttributes());
        for (Control control : request.getControls().values()) {
            if (!OID.equals(control.getOid())) {
                canonical.append('\u0000').append(control.getOid()).append(control.isCritical());
            }
        }
        try {
            return MessageDigest.getInstance("SHA-256")
                    .digest(canonical.toString().getBytes(UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
