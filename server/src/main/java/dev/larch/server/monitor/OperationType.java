package dev.larch.server.monitor;

import java.util.Locale;

import org.apache.directory.api.ldap.model.message.MessageTypeEnum;

/**
 * The LDAP operations counted, named as OpenLDAP's {@code cn=Operations,cn=Monitor} names them
 * ({@link #rdn}) and in lower case for metric labels ({@link #label}).
 */
public enum OperationType {
    BIND("Bind"),
    UNBIND("Unbind"),
    SEARCH("Search"),
    COMPARE("Compare"),
    MODIFY("Modify"),
    MODRDN("Modrdn"),
    ADD("Add"),
    DELETE("Delete"),
    ABANDON("Abandon"),
    EXTENDED("Extended");

    private static final OperationType[] ALL = values();

    private final String rdn;
    private final String label;

    OperationType(String rdn) {
        this.rdn = rdn;
        this.label = name().toLowerCase(Locale.ROOT);
    }

    /** The {@code cn} value of the operation's monitor entry. */
    public String rdn() {
        return rdn;
    }

    /** The value of the {@code operation} label of the Prometheus metrics. */
    public String label() {
        return label;
    }

    static OperationType[] all() {
        return ALL;
    }

    /**
     * The operation a request or its final response belongs to; null for intermediate messages
     * (search entries, references, intermediate responses), which are not operations.
     */
    public static OperationType of(MessageTypeEnum type) {
        return switch (type) {
            case BIND_REQUEST, BIND_RESPONSE -> BIND;
            case UNBIND_REQUEST -> UNBIND;
            case SEARCH_REQUEST, SEARCH_RESULT_DONE -> SEARCH;
            case COMPARE_REQUEST, COMPARE_RESPONSE -> COMPARE;
            case MODIFY_REQUEST, MODIFY_RESPONSE -> MODIFY;
            case MODIFYDN_REQUEST, MODIFYDN_RESPONSE -> MODRDN;
            case ADD_REQUEST, ADD_RESPONSE -> ADD;
            case DEL_REQUEST, DEL_RESPONSE -> DELETE;
            case ABANDON_REQUEST -> ABANDON;
            case EXTENDED_REQUEST, EXTENDED_RESPONSE -> EXTENDED;
            default -> null;
        };
    }
}
