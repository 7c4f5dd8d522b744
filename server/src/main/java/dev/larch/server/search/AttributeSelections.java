package dev.larch.server.search;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.directory.api.ldap.model.schema.SchemaManager;

/**
 * The {@link AttributeSelection}s of the attribute lists searches ask for, remembered: clients send
 * the same few lists again and again, and working one out looks each name up in the schema (a
 * lower-cased copy of every name, a set) on every search.
 *
 * <p>Thread-safe.
 */
public final class AttributeSelections {
    /** Lists remembered before the memory starts afresh, so that a client inventing lists cannot grow it. */
    static final int MAX_REMEMBERED = 256;

    private final SchemaManager schema;
    private final ConcurrentHashMap<List<String>, AttributeSelection> known = new ConcurrentHashMap<>();

    public AttributeSelections(SchemaManager schema) {
        this.schema = schema;
    }

    /** {@link AttributeSelection#of} for {@code requested} (null or empty: all user attributes). */
    public AttributeSelection of(List<String> requested) {
        List<String> key = requested == null ? List.of() : requested;
        AttributeSelection selection = known.get(key);
        if (selection != null) {
            return selection;
        }
        selection = AttributeSelection.of(requested, schema);
        if (!holdsNull(key)) {
            if (known.size() >= MAX_REMEMBERED) {
                known.clear();
            }
            known.put(List.copyOf(key), selection);
        }
        return selection;
    }

    /** A list with a null cannot be a key (and immutable lists refuse even to look for one). */
    private static boolean holdsNull(List<String> list) {
        for (String s : list) {
            if (s == null) {
                return true;
            }
        }
        return false;
    }
}
