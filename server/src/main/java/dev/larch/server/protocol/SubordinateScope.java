package dev.larch.server.protocol;

import org.apache.directory.api.ldap.model.message.Message;
import org.apache.directory.api.ldap.model.message.SearchRequest;

/**
 * The subordinates search scope (draft-sermersheim-ldap-subordinate-scope, scope 3: every entry
 * below the base, not the base): the Apache codec knows only scopes 0 to 2, so the decoder sends
 * such a request on as a subtree search marked here, and the search handler leaves the base out.
 */
public final class SubordinateScope {
    private static final String KEY = "dev.larch.subordinateScope";

    private SubordinateScope() {}

    /** Marks a decoded subtree search as one that asked for the subordinates scope. */
    public static void mark(Message request) {
        request.put(KEY, true);
    }

    /** Whether {@code request} asked for the subordinates scope. */
    public static boolean requested(SearchRequest request) {
        return Boolean.TRUE.equals(request.get(KEY));
    }
}
