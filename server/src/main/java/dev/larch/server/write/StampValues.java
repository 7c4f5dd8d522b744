package dev.larch.server.write;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.directory.api.ldap.model.entry.Value;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.schema.AttributeType;

/**
 * The values of one stamp attribute the server maintains (a timestamp, or the name of who made a
 * change), built once per second or once per name and then shared, since a {@link Value} does not
 * change: building one is a syntax check and a normalization (a DN parse for a name), which cost
 * 7.9% of the writer thread under the modify mix and 10.5% of an import's parse threads (JFR).
 *
 * <p>Bounded: at most {@value #MAX_NAMES} names' values are kept, and all are dropped when that
 * many are; names longer than {@value #MAX_CACHED_NAME_CHARS} characters are not kept. Thread-safe.
 */
final class StampValues {
    static final int MAX_NAMES = 1024;
    static final int MAX_CACHED_NAME_CHARS = 512;

    private record Second(long epochSecond, Value value) {}

    private final AttributeType type;
    private volatile Second second = new Second(-1, null);
    private final Map<String, Value> names = new ConcurrentHashMap<>();

    StampValues(AttributeType type) {
        this.type = type;
    }

    AttributeType type() {
        return type;
    }

    /** The generalized time of {@code epochSecond}, shared while that second is the latest asked for. */
    Value at(long epochSecond) throws LdapException {
        Second s = second;
        if (s.epochSecond() != epochSecond) {
            s = new Second(epochSecond, new Value(type, Timestamps.format(epochSecond)));
            second = s;
        }
        return s.value();
    }

    /** The value naming {@code dn} (a DN's user-provided form). */
    Value naming(String dn) throws LdapException {
        Value value = names.get(dn);
        if (value != null) {
            return value;
        }
        value = new Value(type, dn);
        if (dn.length() <= MAX_CACHED_NAME_CHARS) {
            if (names.size() >= MAX_NAMES) {
                names.clear();
            }
            names.put(dn, value);
        }
        return value;
    }

    /** Names whose values are kept (for tests of the bound). */
    int namesKept() {
        return names.size();
    }
}
