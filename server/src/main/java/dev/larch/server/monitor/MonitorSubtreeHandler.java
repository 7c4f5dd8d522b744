package dev.larch.server.monitor;

import java.time.Clock;
import java.util.List;

import dev.larch.server.access.AccessControl;
import dev.larch.server.directory.SchemaNormalizer;
import dev.larch.server.error.FailureResults;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.protocol.ConnectionEvent;
import dev.larch.server.protocol.Operation;
import dev.larch.server.protocol.RequestHandler;
import dev.larch.server.protocol.Session;
import dev.larch.server.search.AttributeSelection;
import dev.larch.server.search.EntryScreen;
import dev.larch.server.search.Filter;
import dev.larch.server.search.FilterCompiler;
import dev.larch.server.search.ResultEntries;
import dev.larch.server.search.Tri;
import dev.larch.server.store.ReadTxn;
import org.apache.directory.api.ldap.model.message.AddRequest;
import org.apache.directory.api.ldap.model.message.Control;
import org.apache.directory.api.ldap.model.message.DeleteRequest;
import org.apache.directory.api.ldap.model.message.ModifyDnRequest;
import org.apache.directory.api.ldap.model.message.ModifyRequest;
import org.apache.directory.api.ldap.model.message.Request;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.message.ResultResponseRequest;
import org.apache.directory.api.ldap.model.message.SearchRequest;
import org.apache.directory.api.ldap.model.message.SearchResultDone;
import org.apache.directory.api.ldap.model.message.SearchScope;
import org.apache.directory.api.ldap.model.name.Dn;
import org.apache.directory.api.ldap.model.name.Rdn;

/**
 * Wraps a {@link RequestHandler} and answers for the read-only {@code cn=Monitor} subtree itself:
 * searches whose base is in it are answered from a fresh {@link MonitorTree} (base, one-level and
 * subtree scope, the filter judged as on stored entries, the attributes chosen as for stored
 * entries), and adds, deletes, modifies and renames of anything in it are refused with
 * unwillingToPerform. Every other request passes on unchanged; the cost for them is a look at the last
 * RDN of the target DN.
 *
 * <p>Who sees what: {@link AccessControl#forMonitor}. A client that may not read the base entry gets
 * noSuchObject, as if the subtree did not exist; entries it may not read are left out. Critical
 * controls are refused (unavailableCriticalExtension): the monitor implements none; others are
 * ignored. Install it inside the rate quotas, so monitor searches pay their tokens like any other.
 *
 * <p>Thread-safe. Runs on the connection's event loop: a monitor search reads the LMDB statistics
 * in one short read transaction and builds about a hundred small entries.
 */
public final class MonitorSubtreeHandler implements RequestHandler {
    private static final Filter ANY = new Filter.And(List.of());

    private final RequestHandler next;
    private final MonitorTree tree;
    private final SchemaNormalizer schema;
    private final FilterCompiler filters;
    private final AccessControl access;
    private final MonitoredServer server;
    private final ResultEntries results = new ResultEntries(null);
    private final Dn root;

    public MonitorSubtreeHandler(
            RequestHandler next, MonitoredServer server, SchemaNormalizer schema, AccessControl access) {
        this.next = next;
        this.server = server;
        this.schema = schema;
        this.filters = new FilterCompiler(schema.schema());
        this.access = access;
        this.tree = new MonitorTree(server, schema, Clock.systemUTC());
        this.root = schema.dn(MonitorTree.ROOT);
    }

    /** The root DSE's {@code monitorContext} value. */
    public static String context() {
        return MonitorTree.ROOT;
    }

    @Override
    public void handle(Operation op) {
        Request request = op.request();
        try {
            // An if chain rather than a switch with guarded patterns, which the formatter cannot parse.
            if (request instanceof SearchRequest r && inMonitor(r.getBase())) {
                search(op, r);
            } else if (writesInMonitor(request)) {
                refuseWrite();
            } else {
                next.handle(op);
            }
        } catch (RuntimeException failure) {
            if (request instanceof ResultResponseRequest r) {
                op.complete(FailureResults.fill(r.getResultResponse(), failure));
            }
        }
    }

    @Override
    public void ended(Operation operation, ResultResponse response) {
        next.ended(operation, response);
    }

    @Override
    public void connectionEvent(Session session, ConnectionEvent event) {
        next.connectionEvent(session, event);
    }

    private static void refuseWrite() {
        throw new ResultCodeException(ResultCodeEnum.UNWILLING_TO_PERFORM, "cn=Monitor is read-only");
    }

    /**
     * Whether {@code dn} is {@code cn=Monitor} or below it: first whether its last RDN could be
     * {@code cn=Monitor} at all (no parsing, for the requests that are not), then exactly.
     */
    private boolean inMonitor(Dn dn) {
        if (dn == null || dn.size() == 0) {
            return false;
        }
        // Compared without allocating: this runs for every search and write.
        Rdn last = dn.getRdn(dn.size() - 1);
        String value = last.getValue();
        if (value == null || !value.strip().equalsIgnoreCase("monitor")) {
            return false;
        }
        String type = last.getType() == null ? "" : last.getType().strip();
        if (!type.equalsIgnoreCase("cn") && !type.equalsIgnoreCase("commonName") && !type.equals("2.5.4.3")) {
            return false;
        }
        Dn normalized = schema.dn(dn);
        return normalized.equals(root) || normalized.isDescendantOf(root);
    }

    private void search(Operation op, SearchRequest request) {
        for (Control control : request.getControls().values()) {
            if (control.isCritical()) {
                throw new ResultCodeException(
                        ResultCodeEnum.UNAVAILABLE_CRITICAL_EXTENSION,
                        "cn=Monitor answers no control; critical control " + control.getOid() + " refused");
            }
        }
        Dn base = schema.dn(request.getBase());
        Filter filter = filters.compile(request.getFilter());
        AttributeSelection selection = AttributeSelection.of(request.getAttributes(), schema.schema());
        List<MonitorTree.Node> nodes = tree.build();
        MonitorTree.Node baseNode = find(nodes, base);
        long sizeLimit = request.getSizeLimit();
        SearchResultDone done = (SearchResultDone) request.getResultResponse();
        try (ReadTxn txn = server.store().read()) {
            EntryScreen screen = access.forMonitor(op.session(), txn, request.getFilter(), filters);
            if (baseNode == null || screen.evaluate(baseNode.entry(), ANY) != Tri.TRUE) {
                // Like a missing entry: a client that may not read the monitor does not learn it exists.
                throw new ResultCodeException(
                        ResultCodeEnum.NO_SUCH_OBJECT,
                        "no such entry: " + request.getBase().getName(),
                        baseNode == null ? matched(nodes, base, screen) : Dn.EMPTY_DN);
            }
            int sent = 0;
            for (MonitorTree.Node node : nodes) {
                if (!inScope(node.dn(), base, request.getScope())
                        || screen.evaluate(node.entry(), filter) != Tri.TRUE) {
                    continue;
                }
                if (sizeLimit > 0 && sent >= sizeLimit) {
                    done.getLdapResult().setResultCode(ResultCodeEnum.SIZE_LIMIT_EXCEEDED);
                    done.getLdapResult().setDiagnosticMessage("size limit of " + sizeLimit + " entries reached");
                    op.complete(done);
                    return;
                }
                // At most a few hundred small entries: sent without waiting for the client to read.
                op.send(results.build(
                        request.getMessageId(), node.entry(), selection, request.getTypesOnly(), screen, null));
                sent++;
            }
        }
        done.getLdapResult().setResultCode(ResultCodeEnum.SUCCESS);
        op.complete(done);
    }

    private static MonitorTree.Node find(List<MonitorTree.Node> nodes, Dn dn) {
        for (MonitorTree.Node node : nodes) {
            if (node.dn().equals(dn)) {
                return node;
            }
        }
        return null;
    }

    /** The deepest existing, readable ancestor of a DN in the subtree that names no entry. */
    private static Dn matched(List<MonitorTree.Node> nodes, Dn dn, EntryScreen screen) {
        for (Dn ancestor = dn.getParent(); ancestor != null && !ancestor.isEmpty(); ancestor = ancestor.getParent()) {
            MonitorTree.Node node = find(nodes, ancestor);
            if (node != null) {
                return screen.evaluate(node.entry(), ANY) == Tri.TRUE ? ancestor : Dn.EMPTY_DN;
            }
        }
        return Dn.EMPTY_DN;
    }

    private static boolean inScope(Dn dn, Dn base, SearchScope scope) {
        return switch (scope) {
            case OBJECT -> dn.equals(base);
            case ONELEVEL -> dn.size() == base.size() + 1 && dn.isDescendantOf(base);
            case SUBTREE -> dn.equals(base) || dn.isDescendantOf(base);
        };
    }

    private boolean writesInMonitor(Request request) {
        return (request instanceof AddRequest add && inMonitor(add.getEntryDn()))
                || (request instanceof DeleteRequest delete && inMonitor(delete.getName()))
                || (request instanceof ModifyRequest modify && inMonitor(modify.getName()))
                || (request instanceof ModifyDnRequest move
                        && (inMonitor(move.getName()) || inMonitor(move.getNewSuperior())));
    }
}
