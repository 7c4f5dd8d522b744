package dev.larch.server.write;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;

import dev.larch.server.access.AccessControl;
import dev.larch.server.commit.WriteQueue;
import dev.larch.server.control.AssertionControl;
import dev.larch.server.control.ReadEntryControl;
import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.protocol.Operation;
import dev.larch.server.protocol.Session;
import dev.larch.server.read.CurrentSearchLimits;
import dev.larch.server.read.SearchLimits;
import dev.larch.server.search.FilterCompiler;
import dev.larch.server.store.IdCursor;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.store.WriteTxn;
import org.apache.directory.api.ldap.model.message.Control;
import org.apache.directory.api.ldap.model.message.DeleteRequest;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.name.Dn;

/**
 * Delete (RFC 4511 section 4.8): leaves only, or with the subtree delete control
 * (1.2.840.113556.1.4.805) the entry and everything below it, in one write transaction.
 *
 * <p>A subtree delete needs the delete right on every entry it removes (nothing is removed when one
 * is refused) and examines at most the look-through limit of entries ({@code limits.look-through-limit},
 * the administrator's too unless {@code limits.apply-to-admin = false}); a larger subtree is refused
 * with adminLimitExceeded before anything changes, so one request cannot hold the single writer for
 * long.
 */
public final class DeleteHandler {
    /** The subtree delete control (AD's LDAP_SERVER_TREE_DELETE_OID), no value. */
    public static final String SUBTREE_DELETE_OID = "1.2.840.113556.1.4.805";

    private final Directory directory;
    private final WriteQueue writes;
    private final AccessControl access;
    private final CurrentSearchLimits limits;
    private final Integrity integrity;
    private final AssertionControl assertion;
    private final ReadEntryControl preRead;

    public DeleteHandler(Directory directory, WriteQueue writes, AccessControl access) {
        this(directory, writes, access, new CurrentSearchLimits(SearchLimits.NONE), Integrity.NONE);
    }

    /**
     * @param limits whose look-through limit bounds a subtree delete
     * @param integrity the references a delete removes
     */
    public DeleteHandler(
            Directory directory,
            WriteQueue writes,
            AccessControl access,
            CurrentSearchLimits limits,
            Integrity integrity) {
        this.integrity = integrity;
        this.assertion = new AssertionControl(
                new FilterCompiler(directory.schemaNormalizer().schema()), access);
        this.preRead = ReadEntryControl.preRead(access, directory);
        this.directory = directory;
        this.writes = writes;
        this.access = access;
        this.limits = limits;
    }

    public void handle(Operation op, DeleteRequest request) {
        Dn dn = directory.schemaNormalizer().dn(request.getName());
        boolean subtree = request.hasControl(SUBTREE_DELETE_OID);
        Session session = op.session();
        Dn modifier = session.boundDn();
        int bound = limits.get().forSession(session.isAdmin()).lookThroughLimit();
        writes.submit(op, txn -> {
            ReadEntryControl.Requested pre = preRead.requested(request);
            long id = directory.require(txn, dn);
            StoredEntry entry = directory.load(txn, id);
            assertion.require(request, session, txn, entry);
            // The delete right first: refused on an entry it may not read, it answers noSuchObject.
            access.requireDelete(session, txn, entry);
            Control preCopy = preRead.read(pre, session, txn, entry);
            if (subtree) {
                deleteSubtree(session, txn, id, bound, modifier);
            } else {
                if (txn.hasChildren(id)) {
                    throw new ResultCodeException(
                            ResultCodeEnum.NOT_ALLOWED_ON_NON_LEAF,
                            "entry has subordinates; delete them first, or send the subtree delete control: "
                                    + dn.getName());
                }
                directory.delete(txn, entry);
                access.written(txn, entry, null);
                integrity.referencesMoved(txn, dn, null, modifier);
            }
            ResultResponse response = request.getResultResponse();
            response.getLdapResult().setResultCode(ResultCodeEnum.SUCCESS);
            ReadEntryControl.attach(response, preCopy, null);
            return response;
        });
    }

    /** Deletes {@code rootId} and everything below it, children before parents. */
    private void deleteSubtree(Session session, WriteTxn txn, long rootId, int bound, Dn modifier) {
        long[] order = childrenFirst(txn, rootId, bound);
        // Every right is checked before the first record changes, so a refusal leaves all in place.
        StoredEntry[] entries = new StoredEntry[order.length];
        for (int i = 0; i < order.length; i++) {
            entries[i] = directory.load(txn, order[i]);
            access.requireDelete(session, txn, entries[i]);
        }
        for (StoredEntry entry : entries) {
            directory.delete(txn, entry);
            access.written(txn, entry, null);
        }
        // After every delete, so entries of the subtree are not rewritten only to be deleted.
        for (StoredEntry entry : entries) {
            integrity.referencesMoved(txn, directory.schemaNormalizer().dn(entry.dn()), null, modifier);
        }
    }

    /** The IDs of {@code rootId}'s subtree in post-order; adminLimitExceeded past {@code bound} (0 = none). */
    private static long[] childrenFirst(ReadTxn txn, long rootId, int bound) {
        long[] order = new long[16];
        int count = 0;
        Deque<long[]> pending = new ArrayDeque<>(); // {id, children visited (0/1)}
        pending.push(new long[] {rootId, 0});
        while (!pending.isEmpty()) {
            long[] top = pending.peek();
            if (top[1] == 0) {
                top[1] = 1;
                try (IdCursor children = txn.children(top[0])) {
                    for (long child = children.next(); child != ReadTxn.NOT_FOUND; child = children.next()) {
                        pending.push(new long[] {child, 0});
                        if (bound > 0 && pending.size() + count > bound) {
                            throw tooLarge(bound);
                        }
                    }
                }
                continue;
            }
            pending.pop();
            if (bound > 0 && count >= bound) {
                throw tooLarge(bound);
            }
            if (count == order.length) {
                order = Arrays.copyOf(order, count * 2);
            }
            order[count++] = top[0];
        }
        return Arrays.copyOf(order, count);
    }

    private static ResultCodeException tooLarge(int bound) {
        return new ResultCodeException(
                ResultCodeEnum.ADMIN_LIMIT_EXCEEDED,
                "the subtree holds more than " + bound
                        + " entries (limits.look-through-limit); nothing was deleted: delete it in parts");
    }
}
