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

    /**
     * The longest list remembered, in names and in characters: the lists clients repeat are short, and
     * 256 lists of thousands of names, or of very long ones (an anonymous request may carry 256 KB),
     * would fill the heap.
     */
    static final int MAX_REMEMBERED_NAMES = 64;

    static final int MAX_REMEMBERED_CHARS = 2048;

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
        if (rememberable(key)) {
            if (known.size() >= MAX_REMEMBERED) {
                known.clear();
            }
            known.put(List.copyOf(key), selection);
        }
        return selection;
    }

    /**
     * Short enough to keep ({@link #MAX_REMEMBERED_NAMES}, {@link #MAX_REMEMBERED_CHARS}), and without a
     * null: a list with a null cannot be a key (and immutable lists refuse even to look for one).
     */
    private static boolean rememberable(List<String> list) {
        if (list.size() > MAX_REMEMBERED_NAMES) {
            return false;
        }
        int chars = 0;
        for (String s : list) {
            if (s == null) {
                return false;
            }
            chars += s.length();
        }
        return chars <= MAX_REMEMBERED_CHARS;
    }
}
