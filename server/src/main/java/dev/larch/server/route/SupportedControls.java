package dev.larch.server.route;

import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import dev.larch.server.error.ResultCodeException;
import org.apache.directory.api.ldap.model.message.Control;
import org.apache.directory.api.ldap.model.message.MessageTypeEnum;
import org.apache.directory.api.ldap.model.message.Request;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;

/**
 * The request controls the server implements and the operations each applies to: the one list the
 * root DSE's {@code supportedControl} shows and the router checks critical controls against, so the
 * server never advertises a control it ignores nor ignores one it advertises.
 *
 * <p>RFC 4511 section 4.1.11: a critical control the server does not implement, or one that is not
 * appropriate for the operation it came with, fails the operation with unavailableCriticalExtension;
 * a non-critical one is ignored.
 *
 * <p>Immutable and thread-safe once built.
 */
public final class SupportedControls {
    /** Every operation that may carry controls and gets a result: all but abandon and unbind. */
    public static final Set<MessageTypeEnum> ALL_OPERATIONS = Collections.unmodifiableSet(EnumSet.of(
            MessageTypeEnum.BIND_REQUEST,
            MessageTypeEnum.SEARCH_REQUEST,
            MessageTypeEnum.COMPARE_REQUEST,
            MessageTypeEnum.ADD_REQUEST,
            MessageTypeEnum.DEL_REQUEST,
            MessageTypeEnum.MODIFY_REQUEST,
            MessageTypeEnum.MODIFYDN_REQUEST,
            MessageTypeEnum.EXTENDED_REQUEST));

    private final Map<String, Set<MessageTypeEnum>> operationsByOid;

    private SupportedControls(Map<String, Set<MessageTypeEnum>> operationsByOid) {
        this.operationsByOid = operationsByOid;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The OIDs offered, in the order they were added, for {@code supportedControl}. */
    public List<String> oids() {
        return List.copyOf(operationsByOid.keySet());
    }

    /** Whether {@code oid} is offered for requests of type {@code operation}. */
    public boolean applies(String oid, MessageTypeEnum operation) {
        Set<MessageTypeEnum> operations = operationsByOid.get(oid);
        return operations != null && operations.contains(operation);
    }

    /**
     * Refuses {@code request} when it carries a critical control that is not offered for its
     * operation.
     *
     * @throws ResultCodeException unavailableCriticalExtension naming the control's OID
     */
    public void screen(Request request) {
        Map<String, Control> controls = request.getControls();
        if (controls.isEmpty()) {
            return; // most requests carry none: no iterator over the map (50 to 90 bytes a request)
        }
        for (Control control : controls.values()) {
            if (!control.isCritical() || applies(control.getOid(), request.getType())) {
                continue;
            }
            String why = operationsByOid.containsKey(control.getOid())
                    ? " is not supported on " + describe(request.getType())
                    : " is not supported";
            throw new ResultCodeException(
                    ResultCodeEnum.UNAVAILABLE_CRITICAL_EXTENSION, "critical control " + control.getOid() + why);
        }
    }

    private static String describe(MessageTypeEnum type) {
        return type.name().toLowerCase(Locale.ROOT).replace("_request", "").replace('_', ' ') + " requests";
    }

    /** Collects the offered controls; not thread-safe. */
    public static final class Builder {
        private final Map<String, Set<MessageTypeEnum>> operationsByOid = new LinkedHashMap<>();

        private Builder() {}

        /**
         * Offers {@code oid} on requests of the given types; offering the same OID again adds
         * operations to it.
         */
        public Builder offer(String oid, MessageTypeEnum first, MessageTypeEnum... more) {
            return offer(oid, EnumSet.of(first, more));
        }

        /** As above, for a set of request types such as {@link #ALL_OPERATIONS}. */
        public Builder offer(String oid, Set<MessageTypeEnum> operations) {
            operationsByOid
                    .computeIfAbsent(oid, k -> EnumSet.noneOf(MessageTypeEnum.class))
                    .addAll(operations);
            return this;
        }

        public SupportedControls build() {
            Map<String, Set<MessageTypeEnum>> copy = new LinkedHashMap<>();
            operationsByOid.forEach((oid, ops) -> copy.put(oid, Collections.unmodifiableSet(EnumSet.copyOf(ops))));
            return new SupportedControls(Collections.unmodifiableMap(copy));
        }
    }
}
