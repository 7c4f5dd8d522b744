package dev.larch.server.referral;

import java.util.List;

import dev.larch.server.access.AccessControl;
import dev.larch.server.directory.Directory;
import dev.larch.server.directory.ReferralObjects;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.protocol.Session;
import dev.larch.server.search.EntryScreen;
import dev.larch.server.search.FilterCompiler;
import dev.larch.server.store.ReadTxn;
import org.apache.directory.api.ldap.model.constants.SchemaConstants;
import org.apache.directory.api.ldap.model.filter.PresenceNode;
import org.apache.directory.api.ldap.model.message.AddRequest;
import org.apache.directory.api.ldap.model.message.CompareRequest;
import org.apache.directory.api.ldap.model.message.DeleteRequest;
import org.apache.directory.api.ldap.model.message.ModifyDnRequest;
import org.apache.directory.api.ldap.model.message.ModifyRequest;
import org.apache.directory.api.ldap.model.message.Request;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.SearchRequest;
import org.apache.directory.api.ldap.model.name.Dn;

/**
 * Turns an operation whose target is a referral object, or lies below one, into a {@code referral}
 * result (RFC 3296 section 5) unless it carries the ManageDsaIT control. The target is a search's
 * base, the entry compared, modified, deleted or renamed, and the entry an add creates (so its parent,
 * and any referral object of that name). A rename whose new superior lies at or below a referral
 * object is refused with affectsMultipleDSAs: the entry would move into another server's tree.
 *
 * <p>Cost: while the directory holds no referral object, {@link #check} reads one volatile flag and
 * opens no transaction; otherwise one DN-index lookup per RDN of the target.
 *
 * <p>Access: the referral reveals the referral object's DN (as matched DN) and its {@code ref} values,
 * so it is given only to a client that may read {@code ref} on the referral object. Anyone else is
 * answered noSuchObject (matched DN: the referral object's parent), as if the referral object and
 * what lies below it were not there. (OpenLDAP answers the referral to everyone.)
 *
 * <p>The check runs in a read transaction of its own just before the operation: a referral object
 * added or removed between the two is seen by the next operation. Thread-safe.
 */
public final class ReferralGate {
    private final Directory directory;
    private final ReferralObjects referrals;
    private final AccessControl access;
    private final FilterCompiler filters;
    private final PresenceNode anyEntry;
    private final String refOid;

    public ReferralGate(Directory directory, AccessControl access, FilterCompiler filters) {
        this.directory = directory;
        this.referrals = directory.referrals();
        this.access = access;
        this.filters = filters;
        this.anyEntry = new PresenceNode(directory.schemaNormalizer().type(SchemaConstants.OBJECT_CLASS_AT));
        this.refOid = directory.schemaNormalizer().type(SchemaConstants.REF_AT).getOid();
    }

    /**
     * Lets {@code request} through, or throws the referral it gets.
     *
     * @param session whose access decides whether the referral may be shown (the proxied identity's
     *     when the request carries proxied authorization)
     * @throws ResultCodeException referral with the rewritten URLs and the referral object as matched
     *     DN; noSuchObject when the client may not see the referral object; affectsMultipleDSAs for a
     *     rename into a referral object's subtree
     */
    public void check(Session session, Request request) {
        if (referrals.isEmpty() || ManageDsaIt.requested(request)) {
            return;
        }
        Dn target = targetOf(request);
        if (target == null) {
            return;
        }
        try (ReadTxn txn = directory.store().read()) {
            refer(session, txn, target);
            if (request instanceof ModifyDnRequest rename && rename.getNewSuperior() != null) {
                Dn superior = directory.schemaNormalizer().dn(rename.getNewSuperior());
                if (directory.firstOnPath(txn, superior, referrals::contains) != ReadTxn.NOT_FOUND) {
                    throw new ResultCodeException(
                            ResultCodeEnum.AFFECTS_MULTIPLE_DSAS,
                            "the new superior " + superior.getName() + " lies in a referral object's subtree");
                }
            }
        }
    }

    private void refer(Session session, ReadTxn txn, Dn target) {
        long id = directory.firstOnPath(txn, target, referrals::contains);
        if (id == ReadTxn.NOT_FOUND) {
            return;
        }
        StoredEntry object = directory.load(txn, id);
        if (object == null) {
            return;
        }
        Dn objectDn = directory.schemaNormalizer().dn(object.dn());
        List<String> refs = ContinuationReferences.refValues(object, refOid);
        EntryScreen screen = access.forSearch(session, txn, anyEntry, filters);
        if (refs.isEmpty() || !screen.mayRead(object, refOid)) {
            throw new ResultCodeException(
                    ResultCodeEnum.NO_SUCH_OBJECT, "no such entry: " + target.getName(), objectDn.getParent());
        }
        throw ResultCodeException.referral(
                "referral: " + objectDn.getName() + " is held by another server",
                objectDn,
                ReferralUrls.forTarget(refs, objectDn, target));
    }

    /** The DN an operation targets, schema-normalized; null for operations without one. */
    private Dn targetOf(Request request) {
        Dn name = switch (request) {
            case SearchRequest r -> r.getBase();
            case CompareRequest r -> r.getName();
            case AddRequest r -> r.getEntryDn();
            case DeleteRequest r -> r.getName();
            case ModifyRequest r -> r.getName();
            case ModifyDnRequest r -> r.getName();
            default -> null;
        };
        return name == null || name.isEmpty()
                ? null
                : directory.schemaNormalizer().dn(name);
    }
}
