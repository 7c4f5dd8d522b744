package dev.larch.server.route;

import dev.larch.server.directory.Directory;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.read.VirtualEntries;
import dev.larch.server.store.LmdbStore;
import org.apache.directory.api.ldap.model.message.AddRequest;
import org.apache.directory.api.ldap.model.message.BindRequest;
import org.apache.directory.api.ldap.model.message.CompareRequest;
import org.apache.directory.api.ldap.model.message.DeleteRequest;
import org.apache.directory.api.ldap.model.message.ExtendedRequest;
import org.apache.directory.api.ldap.model.message.ModifyDnRequest;
import org.apache.directory.api.ldap.model.message.ModifyRequest;
import org.apache.directory.api.ldap.model.message.Request;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.SearchRequest;
import org.apache.directory.api.ldap.model.name.Dn;

/**
 * Turns away, with unavailable (52), what would read or write the tree while a replica's first
 * refresh loads the store in bulk ({@link LmdbStore#loadingInBulk()}): its indexes lack the entries
 * until the load ends, so a search would miss them and a write would go where the load sorts its own
 * records in. Searches and compares outside the naming context (the root DSE, cn=Monitor, the
 * schema), anonymous binds and the administrator's simple bind (checked against the configuration,
 * not the tree) still pass, so an operator can watch the load. A read-only replica refers writes to
 * its provider before this gate is asked. Thread-safe.
 */
final class LoadingGate {
    private final Directory directory;
    private final Dn admin;

    /** @param admin the administrator's DN, schema-aware */
    LoadingGate(Directory directory, Dn admin) {
        this.directory = directory;
        this.admin = admin;
    }

    /** @throws ResultCodeException unavailable, while the store is loading, for a request that needs it */
    void check(Request request) {
        if (!directory.store().loadingInBulk()) {
            return;
        }
        boolean needsTheTree = switch (request) {
            case BindRequest bind -> !isAnonymousOrAdmin(bind);
            case SearchRequest search -> withinTheTree(search.getBase());
            case CompareRequest compare -> withinTheTree(compare.getName());
            case AddRequest add -> true;
            case DeleteRequest delete -> true;
            case ModifyRequest modify -> true;
            case ModifyDnRequest modifyDn -> true;
            case ExtendedRequest extended -> VirtualEntries.PASSWORD_MODIFY_OID.equals(extended.getRequestName());
            default -> false;
        };
        if (needsTheTree) {
            throw new ResultCodeException(ResultCodeEnum.UNAVAILABLE, LmdbStore.LOADING_IN_BULK);
        }
    }

    private boolean isAnonymousOrAdmin(BindRequest bind) {
        if (!bind.isSimple()) {
            return false; // SASL EXTERNAL and the like find their entry in the tree
        }
        String name = bind.getName();
        if (name == null || name.isEmpty()) {
            return true;
        }
        try {
            return directory.schemaNormalizer().dn(name).equals(admin);
        } catch (ResultCodeException e) {
            return true; // the bind handler answers a malformed name
        }
    }

    private boolean withinTheTree(Dn dn) {
        if (dn == null || dn.isEmpty()) {
            return false;
        }
        try {
            return directory.holds(directory.schemaNormalizer().dn(dn.getName()));
        } catch (ResultCodeException e) {
            return false; // the handler answers a malformed name
        }
    }
}
