package dev.larch.server.read;

import java.nio.ByteBuffer;

import dev.larch.server.search.ResumePoint;
import org.apache.directory.api.ldap.model.message.controls.PagedResults;
import org.apache.directory.api.ldap.model.message.controls.PagedResultsImpl;

/**
 * One page of a paged search (RFC 2696): how many entries it sends, where it starts, and how it tells
 * the client where the next page starts. Made by {@link Paging#start}.
 *
 * <p>Used by one search at a time; {@link #responseControl} may run on any thread.
 */
final class PagedSearch {
    private static final byte[] NO_COOKIE = new byte[0];

    private final OpenPagedSearches open;
    private final byte[] requestDigest;
    private final int pageSize;
    private final ResumePoint resume;
    private final long sentBefore;
    private final long totalLimit;
    private final String totalLimitSource;

    /**
     * @param pageSize entries this page sends at most; 0 abandons the paged search
     * @param resume where the previous page stopped; null on the first page
     * @param sentBefore entries the earlier pages sent
     * @param totalLimit entries all pages together may send; 0 for no limit
     * @param totalLimitSource where {@code totalLimit} came from, for the diagnostic
     */
    PagedSearch(
            OpenPagedSearches open,
            byte[] requestDigest,
            int pageSize,
            ResumePoint resume,
            long sentBefore,
            long totalLimit,
            String totalLimitSource) {
        this.open = open;
        this.requestDigest = requestDigest;
        this.pageSize = pageSize;
        this.resume = resume;
        this.sentBefore = sentBefore;
        this.totalLimit = totalLimit;
        this.totalLimitSource = totalLimitSource;
    }

    int pageSize() {
        return pageSize;
    }

    /** Whether the client asked to abandon the paged search (page size 0, RFC 2696 section 3). */
    boolean abandons() {
        return pageSize == 0;
    }

    /** Where this page starts; null on the first page. */
    ResumePoint resume() {
        return resume;
    }

    /**
     * The entries this page may send before the paged search is past its size limit, at least 1 so
     * the page can tell that one more would go past it; 0 when there is no limit.
     */
    int sizeLimit() {
        if (totalLimit == 0) {
            return 0;
        }
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1, totalLimit - sentBefore));
    }

    String sizeLimitExceeded() {
        return "size limit of " + totalLimit + " entries over all pages exceeded (" + totalLimitSource + ")";
    }

    /**
     * The control for the page's SearchResultDone: the cookie of the next page when {@code next} is
     * not null (the page stopped with more to come), else an empty cookie, which ends the search.
     *
     * @param sentThisPage entries this page sent, counted toward the paged search's size limit
     */
    PagedResults responseControl(ResumePoint next, int sentThisPage) {
        PagedResultsImpl control = new PagedResultsImpl();
        control.setSize(0); // RFC 2696: 0 when the server does not estimate the total
        if (next == null) {
            control.setCookie(NO_COOKIE);
        } else {
            long cookie = open.save(new OpenPagedSearches.Saved(requestDigest, next, sentBefore + sentThisPage));
            control.setCookie(ByteBuffer.allocate(Long.BYTES).putLong(cookie).array());
        }
        return control;
    }
}
