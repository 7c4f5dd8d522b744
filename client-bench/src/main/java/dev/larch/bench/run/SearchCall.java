package dev.larch.bench.run;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import com.unboundid.ldap.sdk.AsyncRequestID;
import com.unboundid.ldap.sdk.AsyncSearchResultListener;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPSearchException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchResultReference;
import dev.larch.bench.mix.OperationSpec;

/** A search and the check of its answer against what the data file says it must hold. */
final class SearchCall implements Request {
    private final int operation;
    private final OperationSpec spec;
    private final SearchRequest search;
    private final Expected expected;

    SearchCall(int operation, OperationSpec spec, SearchRequest search, Expected expected) {
        this.operation = operation;
        this.spec = spec;
        this.search = search;
        this.expected = expected;
    }

    @Override
    public int operation() {
        return operation;
    }

    SearchRequest search() {
        return search;
    }

    Expected expected() {
        return expected;
    }

    @Override
    public Answer execute(LDAPConnection connection) {
        try {
            SearchResult result = connection.search(search);
            return judge(result, result.getSearchEntries());
        } catch (LDAPSearchException e) {
            SearchResult result = e.getSearchResult();
            return judge(result, result.getSearchEntries());
        }
    }

    @Override
    public void send(LDAPConnection connection, Consumer<Answer> done) {
        List<SearchResultEntry> entries = new ArrayList<>();
        AsyncSearchResultListener listener = new AsyncSearchResultListener() {
            private static final long serialVersionUID = 1L;

            @Override
            public void searchEntryReturned(SearchResultEntry entry) {
                entries.add(entry);
            }

            @Override
            public void searchReferenceReturned(SearchResultReference reference) {
                // references are not entries; the checks look at entries only
            }

            @Override
            public void searchResultReceived(AsyncRequestID id, SearchResult result) {
                done.accept(judge(result, entries));
            }
        };
        SearchRequest copy = new SearchRequest(
                listener, search.getBaseDN(), search.getScope(), search.getFilter(), search.getAttributes());
        copy.setSizeLimit(search.getSizeLimit());
        try {
            connection.asyncSearch(copy);
        } catch (LDAPException e) {
            done.accept(
                    Answer.error(e.getResultCode().intValue(), e.getResultCode().isConnectionUsable()));
        }
    }

    /** Whether {@code result} and its {@code entries} are the right answer to this search. */
    Answer judge(SearchResult result, List<SearchResultEntry> entries) {
        ResultCode rc = result.getResultCode();
        if (rc.equals(ResultCode.SUCCESS) || rc.equals(ResultCode.SIZE_LIMIT_EXCEEDED)) {
            return AnswerCheck.judge(
                    spec, expected, result.getEntryCount(), entries, rc.equals(ResultCode.SIZE_LIMIT_EXCEEDED));
        }
        if (rc.equals(ResultCode.NO_SUCH_OBJECT)) {
            return AnswerCheck.noSuchObject(spec, expected, search.getBaseDN());
        }
        return Answer.error(rc.intValue(), rc.isConnectionUsable());
    }
}
