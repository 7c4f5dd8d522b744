package dev.larch.server.read;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import dev.larch.server.search.ResumePoint;

/**
 * The paged searches one connection left open between pages (RFC 2696), by cookie. Each holds where
 * to resume and a digest of the request it belongs to: no read transaction, no entries. At most
 * {@code max} are kept; saving one more forgets the oldest, so a client that starts paged searches
 * and never finishes them holds a few kilobytes at most.
 *
 * <p>A page takes its cookie's state out ({@link #take}) and saves a new one when it stops with more
 * to come, so a cookie works once: a superseded cookie, like a forgotten one, is unknown.
 *
 * <p>Thread-safe: a page may end on a worker thread.
 */
final class OpenPagedSearches {
    /** What a page left for the next. */
    record Saved(byte[] requestDigest, ResumePoint resume, long sentBefore) {}

    private final int max;
    private final Map<Long, Saved> open = new LinkedHashMap<>();

    OpenPagedSearches(int max) {
        this.max = max;
    }

    /** Removes and returns the state saved under {@code cookie}; null when unknown. */
    synchronized Saved take(long cookie) {
        return open.remove(cookie);
    }

    /** Saves {@code state}, forgetting the oldest when full, and returns its new cookie. */
    synchronized long save(Saved state) {
        while (open.size() >= max) {
            Iterator<Long> oldest = open.keySet().iterator();
            oldest.next();
            oldest.remove();
        }
        long cookie;
        do {
            // Not a secret (a cookie only works on its own connection, for its own request): only unique.
            cookie = ThreadLocalRandom.current().nextLong();
        } while (cookie == 0 || open.containsKey(cookie));
        open.put(cookie, state);
        return cookie;
    }

    synchronized int size() {
        return open.size();
    }
}
