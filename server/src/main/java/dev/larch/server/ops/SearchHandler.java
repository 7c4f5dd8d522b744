package dev.larch.server.ops;

import dev.larch.server.entry.StoredEntry;
import dev.larch.server.error.FailureResults;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.protocol.Operation;
import dev.larch.server.search.Filter;
import dev.larch.server.search.SearchCursor;
import dev.larch.server.search.Tri;
import dev.larch.server.store.IdSet;
import dev.larch.server.store.ReadTxn;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.SearchRequest;
import org.apache.directory.api.ldap.model.message.SearchResultDone;
import org.apache.directory.api.ldap.model.message.SearchScope;
import org.apache.directory.api.ldap.model.name.Dn;

/**
 * Answers search requests (RFC 4511 section 4.5): resolves the base, plans candidates, and
 * streams matching entries from a read transaction on the connection's event loop.
 */
final class SearchHandler {
    private final Backend backend;
    private final ResultEntries results;

    SearchHandler(Backend backend) {
        this.backend = backend;
        this.results = new ResultEntries(backend.access(), VirtualEntries.SUBSCHEMA_DN);
    }

    void handle(Operation op, SearchRequest request) {
        Filter filter =
                backend.filters().compile(request.getFilter(), backend.access().unreadable(op.session()));
        AttributeSelection selection = AttributeSelection.of(
                request.getAttributes(), backend.schemaNormalizer().schema());
        Dn base = backend.schemaNormalizer().dn(request.getBase());
        if (base.isEmpty() || base.equals(backend.virtualEntries().subschemaDn())) {
            answerVirtual(op, request, base, filter, selection);
            return;
        }
        if (!backend.directory().holds(base)) {
            throw new ResultCodeException(ResultCodeEnum.NO_SUCH_OBJECT, "no naming context holds " + base.getName());
        }
        ReadTxn txn = backend.directory().store().read();
        SearchCursor cursor = null;
        try {
            long baseId = backend.directory().require(txn, base);
            IdSet candidates = request.getScope() == SearchScope.OBJECT
                    ? null
                    : backend.planner().plan(txn, filter).ids();
            boolean admin = op.session().isAdmin();
            cursor = new SearchCursor(
                    backend.directory(),
                    txn,
                    baseId,
                    request.getScope(),
                    filter,
                    candidates,
                    admin ? 0 : backend.lookThroughLimit());
            new StreamingSearch(
                            op,
                            request,
                            txn,
                            cursor,
                            selection,
                            results,
                            limit(request.getSizeLimit(), admin ? 0 : backend.sizeLimit()),
                            limit(request.getTimeLimit(), admin ? 0 : backend.timeLimitSeconds()))
                    .run();
        } catch (RuntimeException e) {
            if (cursor != null) {
                cursor.close();
            }
            txn.close();
            throw e;
        }
    }

    /** The root DSE and the subschema subentry answer base searches only. */
    private void answerVirtual(
            Operation op, SearchRequest request, Dn base, Filter filter, AttributeSelection selection) {
        StoredEntry entry = base.isEmpty()
                ? backend.virtualEntries().rootDse()
                : backend.virtualEntries().subschema();
        SearchResultDone done = (SearchResultDone) request.getResultResponse();
        if (request.getScope() != SearchScope.OBJECT) {
            if (base.isEmpty()) {
                done.getLdapResult().setResultCode(ResultCodeEnum.NO_SUCH_OBJECT);
                done.getLdapResult().setDiagnosticMessage("the root DSE answers base-scope searches only");
                op.complete(done);
                return;
            }
        }
        // The subschema subentry is a leaf: a one-level search below it finds nothing, not itself.
        boolean inScope = request.getScope() != SearchScope.ONELEVEL;
        if (inScope && filter.evaluate(entry) == Tri.TRUE) {
            op.send(results.build(
                    request.getMessageId(), entry, selection, request.getTypesOnly(), op.session(), null));
        }
        done.getLdapResult().setResultCode(ResultCodeEnum.SUCCESS);
        op.complete(done);
    }

    /** The stricter of a client's limit and the server's, where 0 means none. */
    private static int limit(long requested, int server) {
        if (requested <= 0) {
            return server;
        }
        if (server <= 0) {
            return (int) Math.min(requested, Integer.MAX_VALUE);
        }
        return (int) Math.min(requested, server);
    }

    /** Fails the operation with the error's result code. */
    static void fail(Operation op, SearchRequest request, Throwable failure) {
        op.complete(FailureResults.fill(request.getResultResponse(), failure));
    }
}
