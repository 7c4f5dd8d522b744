package dev.larch.server.search;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.larch.server.directory.AttributeDescriptions;
import org.apache.directory.api.ldap.model.schema.AttributeType;
import org.apache.directory.api.ldap.model.schema.SchemaManager;
import org.apache.directory.api.ldap.model.schema.UsageEnum;

/**
 * Which attributes a search returns (RFC 4511 section 4.5.1.8): none listed or {@code *} means
 * all user attributes, {@code +} all operational ones (RFC 3673), {@code 1.1} none, and named
 * attributes include their subtypes.
 */
public final class AttributeSelection {
    private final boolean allUser;
    private final boolean allOperational;
    private final Set<String> named;
    /**
     * The computed operational attributes ({@link ResultEntries#COMPUTED_OIDS}) named: asked about
     * five times per entry returned, nearly always empty (a HashSet look-up each was 0.6% of the
     * server's CPU on the addressing mix, async-profiler).
     */
    private final Set<String> namedComputed;

    private final SchemaManager schema;
    /** Which values of the returned attributes are sent (RFC 3876); null for all. */
    private final MatchedValues values;

    private AttributeSelection(
            boolean allUser, boolean allOperational, Set<String> named, SchemaManager schema, MatchedValues values) {
        this.allUser = allUser;
        this.allOperational = allOperational;
        this.named = named;
        Set<String> computed = new HashSet<>(named);
        computed.retainAll(ResultEntries.COMPUTED_OIDS);
        this.namedComputed = Set.copyOf(computed);
        this.schema = schema;
        this.values = values;
    }

    public static AttributeSelection of(List<String> requested, SchemaManager schema) {
        boolean allUser = requested == null || requested.isEmpty();
        boolean allOperational = false;
        Set<String> named = new HashSet<>();
        if (requested != null) {
            for (String r : requested) {
                String name = r.trim();
                if (name.equals("*")) {
                    allUser = true;
                } else if (name.equals("+")) {
                    allOperational = true;
                } else if (!name.equals("1.1") && !name.isEmpty() && AttributeDescriptions.canName(name)) {
                    AttributeType type = schema.getAttributeType(name);
                    if (type != null) {
                        named.add(type.getOid());
                    }
                }
            }
        }
        return new AttributeSelection(allUser, allOperational, named, schema, null);
    }

    /** The same attributes, of whose values only those {@code values} matches are sent; null for all. */
    public AttributeSelection withValues(MatchedValues values) {
        if (values == this.values) {
            return this; // the common case, no matched values on a selection without them
        }
        return new AttributeSelection(allUser, allOperational, named, schema, values);
    }

    /** Which values of the returned attributes are sent; null for all. */
    MatchedValues values() {
        return values;
    }

    /** Whether the attribute with this OID is to be returned. */
    public boolean includes(String oid) {
        return includes(oid, schema.getAttributeType(oid));
    }

    /**
     * Whether an attribute of this type is to be returned; callers that hold the type skip a
     * registry lookup per attribute per entry (110 of 1,252 CPU samples under the messaging mix).
     */
    public boolean includes(String oid, AttributeType type) {
        boolean operational = type != null && type.getUsage() != UsageEnum.USER_APPLICATIONS;
        if (operational ? allOperational : allUser) {
            return true;
        }
        for (AttributeType t = type; t != null; t = t.getSuperior()) {
            if (named.contains(t.getOid())) {
                return true;
            }
        }
        return type == null ? false : named.contains(oid);
    }

    /**
     * Whether a computed operational attribute (hasSubordinates, entryDN, …) is asked for.
     *
     * @param oid one of {@link ResultEntries#COMPUTED_OIDS}; any other is never asked for here
     */
    public boolean includesComputed(String oid) {
        return allOperational || (!namedComputed.isEmpty() && namedComputed.contains(oid));
    }
}
