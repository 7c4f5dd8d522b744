package dev.larch.server.auth.policy;

import java.util.HashSet;
import java.util.Set;

import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import org.apache.directory.api.ldap.model.schema.AttributeType;
import org.apache.directory.api.ldap.model.schema.SchemaManager;

/**
 * The OIDs of the attributes {@link PasswordState} reads, so that a bind can tell at a glance that an
 * entry carries none of them (the usual case): looking each name up in the schema for every bind was
 * most of the cost of reading an entry's state (async-profiler, authrate). Thread-safe; the OIDs are
 * kept for the last schema asked about.
 */
final class StateAttributeOids {
    private static volatile StateAttributeOids last;

    private final SchemaManager schema;
    private final Set<String> oids;

    private StateAttributeOids(SchemaManager schema) {
        this.schema = schema;
        Set<String> found = new HashSet<>();
        for (String name : PasswordState.ATTRIBUTES) {
            AttributeType type = schema.getAttributeType(name);
            if (type != null) {
                found.add(type.getOid());
            }
        }
        this.oids = Set.copyOf(found);
    }

    /**
     * Whether {@code entry} carries any of {@link PasswordState#ATTRIBUTES} as {@code schema} defines
     * them; an attribute the schema does not define is never carried.
     */
    static boolean carriesAny(StoredEntry entry, SchemaManager schema) {
        StateAttributeOids known = last;
        if (known == null || !known.schema.equals(schema)) {
            known = new StateAttributeOids(schema);
            last = known;
        }
        for (StoredAttribute attribute : entry.attributes()) {
            if (known.oids.contains(attribute.oid())) {
                return true;
            }
        }
        return false;
    }
}
