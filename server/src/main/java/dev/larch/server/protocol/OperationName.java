package dev.larch.server.protocol;

import org.apache.directory.api.ldap.model.message.AddRequest;
import org.apache.directory.api.ldap.model.message.BindRequest;
import org.apache.directory.api.ldap.model.message.CompareRequest;
import org.apache.directory.api.ldap.model.message.DeleteRequest;
import org.apache.directory.api.ldap.model.message.ExtendedRequest;
import org.apache.directory.api.ldap.model.message.Message;
import org.apache.directory.api.ldap.model.message.ModifyDnRequest;
import org.apache.directory.api.ldap.model.message.ModifyRequest;
import org.apache.directory.api.ldap.model.message.SearchRequest;
import org.apache.directory.api.ldap.model.message.SearchScope;

/**
 * The names the access log and the traces give an operation ({@code SEARCH}, {@code MODDN}, ...) and
 * a search scope ({@code base}, {@code one}, {@code sub}), so log lines and spans agree.
 */
public final class OperationName {
    private OperationName() {}

    public static String of(Message request) {
        return switch (request) {
            case SearchRequest r -> "SEARCH";
            case BindRequest r -> "BIND";
            case AddRequest r -> "ADD";
            case DeleteRequest r -> "DELETE";
            case ModifyRequest r -> "MODIFY";
            case ModifyDnRequest r -> "MODDN";
            case CompareRequest r -> "COMPARE";
            case ExtendedRequest r -> "EXTENDED";
            default -> request.getType().name();
        };
    }

    /** A search's scope as OpenLDAP's logs name it; a missing scope is base. */
    public static String scope(SearchScope scope) {
        if (scope == null) {
            return "base";
        }
        return switch (scope) {
            case OBJECT -> "base";
            case ONELEVEL -> "one";
            case SUBTREE -> "sub";
        };
    }
}
