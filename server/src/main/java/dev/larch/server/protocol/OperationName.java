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

/**
 * The short upper-case name of a request's operation ({@code SEARCH}, {@code MODDN}, ...), as the
 * access log's type field and the trace's span names carry it, so log lines and spans agree.
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
}
