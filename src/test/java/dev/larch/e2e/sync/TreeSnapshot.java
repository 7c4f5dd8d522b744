package dev.larch.e2e.sync;

import java.util.Arrays;
import java.util.SortedMap;
import java.util.concurrent.ConcurrentSkipListMap;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchResultListener;
import com.unboundid.ldap.sdk.SearchResultReference;
import com.unboundid.ldap.sdk.SearchScope;

/**
 * One server's subtree at one moment, as a digest per entry keyed by normalized DN: one streamed
 * subtree search with attributes {@code *} and {@code +}, no size or time limit, entries hashed as
 * they arrive (a few megabytes for 20,000 entries however large the entries are).
 */
record TreeSnapshot(SortedMap<String, byte[]> digests) {
    static TreeSnapshot read(LdapEndpoint server, String baseDn) throws LDAPException {
        ConcurrentSkipListMap<String, byte[]> digests = new ConcurrentSkipListMap<>();
        SearchResultListener listener = new SearchResultListener() {
            private static final long serialVersionUID = 1L;

            @Override
            public void searchEntryReturned(SearchResultEntry entry) {
                ComparedEntry compared = ComparedEntry.of(entry);
                digests.put(compared.dn(), compared.digest());
            }

            @Override
            public void searchReferenceReturned(SearchResultReference reference) {
                // The trees compared hold no referrals; a reference would show up as a missing entry.
            }
        };
        try (LDAPConnection c = server.connect()) {
            SearchRequest search = new SearchRequest(listener, baseDn, SearchScope.SUB, "(objectClass=*)", "*", "+");
            search.setSizeLimit(0);
            search.setTimeLimitSeconds(0);
            SearchResult result = c.search(search);
            if (!ResultCode.SUCCESS.equals(result.getResultCode())) {
                throw new LDAPException(result);
            }
        } catch (LDAPException e) {
            if (ResultCode.NO_SUCH_OBJECT.equals(e.getResultCode())) {
                // A consumer before its first refresh has no suffix entry yet: an empty tree.
                return new TreeSnapshot(new ConcurrentSkipListMap<>());
            }
            throw e;
        }
        return new TreeSnapshot(digests);
    }

    /**
     * How many entries the subtree holds, read without attributes: a cheap first check while a
     * refresh is still far from done, so polling does not compete with it for the CPU.
     */
    static int count(LdapEndpoint server, String baseDn) throws LDAPException {
        SearchResultListener discard = new SearchResultListener() {
            private static final long serialVersionUID = 1L;

            @Override
            public void searchEntryReturned(SearchResultEntry entry) {}

            @Override
            public void searchReferenceReturned(SearchResultReference reference) {}
        };
        try (LDAPConnection c = server.connect()) {
            SearchRequest search = new SearchRequest(discard, baseDn, SearchScope.SUB, "(objectClass=*)", "1.1");
            search.setSizeLimit(0);
            search.setTimeLimitSeconds(0);
            return c.search(search).getEntryCount();
        } catch (LDAPException e) {
            if (ResultCode.NO_SUCH_OBJECT.equals(e.getResultCode())) {
                return 0;
            }
            throw e;
        }
    }

    boolean sameEntry(String dn, TreeSnapshot other) {
        return Arrays.equals(digests.get(dn), other.digests.get(dn));
    }
}
