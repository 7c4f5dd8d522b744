package dev.larch.server.directory;

import java.util.concurrent.ConcurrentHashMap;

import org.apache.directory.api.ldap.model.schema.AttributeType;
import org.apache.directory.api.ldap.model.schema.SchemaManager;

/**
 * {@link AttributeDescriptions#typeOrNull} with a memory of the descriptions that named a type: the
 * schema manager lower-cases every name it is asked about into a new char array and string (about
 * 100 bytes), and a search asks about its filter's attributes two or three times.
 *
 * <p>Bounded, since the descriptions come from clients: only descriptions that name a type are
 * remembered (a random name is looked up every time), each of at most {@value #MAX_LENGTH}
 * characters, and at most {@value #MAX_REMEMBERED} of them, give or take the threads adding one at
 * the same moment (then the memory stops growing, so case variants of real names cannot grow it).
 *
 * <p>Thread-safe.
 */
public final class RememberedDescriptions {
    /** The most descriptions remembered. */
    static final int MAX_REMEMBERED = 1024;
    /** The longest description remembered (longer than any name in the bundled schemas). */
    static final int MAX_LENGTH = 64;

    private final SchemaManager schema;
    private final ConcurrentHashMap<String, AttributeType> types = new ConcurrentHashMap<>();

    public RememberedDescriptions(SchemaManager schema) {
        this.schema = schema;
    }

    /** What {@link AttributeDescriptions#typeOrNull} answers for {@code description}. */
    public AttributeType typeOrNull(String description) {
        if (description == null) {
            return null;
        }
        AttributeType known = types.get(description);
        if (known != null) {
            return known;
        }
        AttributeType type = AttributeDescriptions.typeOrNull(schema, description);
        if (type != null && description.length() <= MAX_LENGTH && types.size() < MAX_REMEMBERED) {
            types.put(description, type);
        }
        return type;
    }

    /** How many descriptions are remembered (for tests). */
    int remembered() {
        return types.size();
    }
}
