package dev.larch.server.directory;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.error.ResultCodeException;
import org.apache.directory.api.ldap.model.constants.SchemaConstants;
import org.apache.directory.api.ldap.model.entry.Attribute;
import org.apache.directory.api.ldap.model.entry.DefaultAttribute;
import org.apache.directory.api.ldap.model.entry.DefaultEntry;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.entry.Value;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.exception.LdapInvalidAttributeValueException;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.name.Dn;
import org.apache.directory.api.ldap.model.schema.AttributeType;
import org.apache.directory.api.ldap.model.schema.MatchingRule;
import org.apache.directory.api.ldap.model.schema.SchemaManager;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * Turns client-supplied names and values into schema-aware ones, with the result code a client
 * should get when they do not fit the schema.
 *
 * <p>Thread-safe: the schema manager is only read.
 */
public final class SchemaNormalizer {
    /**
     * Bytes (estimated, see {@link DnCache}) of parsed DNs kept for reuse: about 5,600 typical
     * 30-character search bases, or 280 of the longest cached DNs. A constant rather than a config
     * key: it only trades a little memory for parse time, and no deployment needs to tune it.
     */
    static final long DN_CACHE_BYTES = 4L << 20;

    /**
     * Bytes (estimated) of parsed DN-syntax values of stored entries kept for {@link #toEntry}: the
     * values that repeat across entries (memberOf's few groups, the few modifiers and creators) hit;
     * a group's many member DNs only pass through. Apart from the search bases' cache, so that a
     * write of a large group cannot empty that one.
     */
    static final long STORED_DN_CACHE_BYTES = 1L << 20;

    private final SchemaManager schema;
    private final DnCache recentDns = new DnCache(DN_CACHE_BYTES);
    private final DnCache storedDns = new DnCache(STORED_DN_CACHE_BYTES);

    /**
     * How many spellings of attribute type names {@link #type} remembers. The schema's names in the
     * cases clients use fit many times over; a client that sends ever new spellings ("cN", "Cn", ...)
     * fills it and is then looked up as before, so its memory stays bounded.
     */
    static final int TYPE_CACHE_ENTRIES = 2048;

    /**
     * Attribute types by the description that named them: the schema manager's lookup (lowercasing,
     * an OID registry and a name registry) was 9% of the CPU that made a replica's incoming entries
     * schema-aware (JFR). Holds only names that resolved; the schema of a normalizer never changes.
     */
    private final ConcurrentHashMap<String, AttributeType> typesByDescription = new ConcurrentHashMap<>();

    /** How many values {@link #sharedValues} holds at most: when full it is emptied and fills again. */
    static final int SHARED_VALUE_ENTRIES = 4096;

    /** Longest value (in chars) {@link #sharedValues} holds: longer ones are rare and would crowd it. */
    static final int MAX_SHARED_VALUE_CHARS = 256;

    /**
     * Values of the types whose values recur across entries and cost most to normalize, by type OID and
     * value: those matched by objectIdentifierMatch (objectClass: the Apache normalizer looks a class
     * name up as an attribute type first and builds an exception with a formatted message for each
     * miss) and by distinguishedNameMatch (creatorsName, manager: a DN parsed twice, to check its syntax
     * and to normalize it). The two were 6% and 30% of the CPU that made a replica's incoming entries
     * schema-aware (JFR). Values are immutable and shared; only values that passed are held.
     */
    private final ConcurrentHashMap<String, Value> sharedValues = new ConcurrentHashMap<>();

    public SchemaNormalizer(SchemaManager schema) {
        this.schema = schema;
    }

    public SchemaManager schema() {
        return schema;
    }

    /**
     * Parses and normalizes a DN; invalidDNSyntax (or undefinedAttributeType) when it cannot.
     * Recently parsed DNs come from a small cache: clients repeat the same search bases, and
     * parsing a base cost 52 of 749 CPU samples under the messaging mix. Dn is immutable. The cache
     * is bounded in bytes ({@link #DN_CACHE_BYTES}) and skips long DNs, so no client can grow it.
     */
    public Dn dn(String name) {
        Dn cached = recentDns.get(name);
        if (cached != null) {
            return cached;
        }
        Dn dn;
        try {
            dn = new Dn(schema, name);
        } catch (LdapException | IllegalArgumentException e) {
            throw new ResultCodeException(ResultCodeEnum.INVALID_DN_SYNTAX, "invalid DN '" + name + "'");
        }
        recentDns.put(name, dn);
        return dn;
    }

    /** Estimated bytes the DN cache holds; never above {@link #DN_CACHE_BYTES}. */
    long dnCacheBytes() {
        return recentDns.estimatedBytes();
    }

    /** Makes a client DN schema-aware (the codec hands out DNs without a schema). */
    public Dn dn(Dn name) {
        if (name.isSchemaAware()) {
            return name;
        }
        return dn(name.getName());
    }

    /** The attribute type a description names; undefinedAttributeType when it names none. */
    public AttributeType type(String description) {
        AttributeType known = description == null ? null : typesByDescription.get(description);
        if (known != null) {
            return known;
        }
        String name = description;
        int options = name.indexOf(';');
        if (options >= 0) {
            throw new ResultCodeException(
                    ResultCodeEnum.UNDEFINED_ATTRIBUTE_TYPE, "attribute options are not supported: " + description);
        }
        AttributeType type = AttributeDescriptions.typeOrNull(schema, name);
        if (type == null) {
            throw new ResultCodeException(
                    ResultCodeEnum.UNDEFINED_ATTRIBUTE_TYPE, "undefined attribute type '" + name + "'");
        }
        if (typesByDescription.size() < TYPE_CACHE_ENTRIES) {
            typesByDescription.put(description, type);
        }
        return type;
    }

    /** The attribute type a description names, or null when the schema does not know it. */
    public AttributeType typeOrNull(String description) {
        return AttributeDescriptions.typeOrNull(schema, description);
    }

    /** A schema-aware copy of a client's entry; fails on undefined types and invalid values. */
    public Entry fromClient(Dn dn, Entry clientEntry) {
        Entry entry = new DefaultEntry(schema, dn);
        for (Attribute clientAttribute : clientEntry) {
            Attribute attribute = attribute(clientAttribute.getUpId(), clientAttribute);
            Attribute existing = entry.get(attribute.getAttributeType());
            try {
                if (existing == null) {
                    entry.add(attribute);
                } else {
                    for (Value v : attribute) {
                        existing.add(v);
                    }
                }
            } catch (LdapException e) {
                throw new ResultCodeException(ResultCodeEnum.OTHER, e.getMessage());
            }
        }
        return entry;
    }

    /** A schema-aware attribute from client values; invalidAttributeSyntax for a bad value. */
    public Attribute attribute(String upId, Iterable<Value> clientValues) {
        AttributeType type = type(upId);
        Attribute attribute = new DefaultAttribute(upId, type);
        for (Value clientValue : clientValues) {
            try {
                attribute.add(value(type, clientValue));
            } catch (LdapInvalidAttributeValueException e) {
                throw new ResultCodeException(
                        ResultCodeEnum.INVALID_ATTRIBUTE_SYNTAX, upId + ": value invalid per syntax");
            }
        }
        return attribute;
    }

    /** One schema-aware value; invalidAttributeSyntax when it does not fit the type. */
    public Value value(AttributeType type, Value clientValue) {
        if (clientValue.isHumanReadable() && humanReadable(type)) {
            // The client's string as it is: through UTF-8 bytes and back it came out the same, at the cost
            // of two copies (11% of the CPU that made a replica's incoming entries schema-aware, JFR).
            return humanReadableValue(type, clientValue.getString());
        }
        byte[] bytes = clientValue.isHumanReadable() ? clientValue.getString().getBytes(UTF_8) : clientValue.getBytes();
        return value(type, bytes);
    }

    public Value value(AttributeType type, byte[] bytes) {
        if (humanReadable(type)) {
            return humanReadableValue(type, new String(bytes, UTF_8));
        }
        try {
            return new Value(type, bytes);
        } catch (LdapInvalidAttributeValueException | IllegalArgumentException | IndexOutOfBoundsException e) {
            throw invalidValue(type);
        }
    }

    private static boolean humanReadable(AttributeType type) {
        return type.getSyntax() != null && type.getSyntax().isHumanReadable();
    }

    private Value humanReadableValue(AttributeType type, String string) {
        String key =
                sharedKind(type) && string.length() <= MAX_SHARED_VALUE_CHARS ? type.getOid() + ' ' + string : null;
        if (key != null) {
            Value known = sharedValues.get(key);
            if (known != null) {
                return known;
            }
        }
        Value value;
        try {
            value = new Value(type, string);
        } catch (LdapInvalidAttributeValueException | IllegalArgumentException | IndexOutOfBoundsException e) {
            // IndexOutOfBounds: the Apache OID normalizer lowercases through a 256-entry table and throws on
            // a character above U+00FF (objectClass: "\u0100"); such a value is not an OID either.
            throw invalidValue(type);
        }
        if (key != null) {
            if (sharedValues.size() >= SHARED_VALUE_ENTRIES) {
                sharedValues.clear(); // the recurring values come back at once; the rest were one-offs
            }
            sharedValues.put(key, value);
        }
        return value;
    }

    /** Whether values of {@code type} are held in {@link #sharedValues}. */
    private static boolean sharedKind(AttributeType type) {
        MatchingRule equality = type.getEquality();
        if (equality == null) {
            return false;
        }
        String rule = equality.getOid();
        return SchemaConstants.OBJECT_IDENTIFIER_MATCH_MR_OID.equals(rule)
                || SchemaConstants.DISTINGUISHED_NAME_MATCH_MR_OID.equals(rule);
    }

    private static ResultCodeException invalidValue(AttributeType type) {
        return new ResultCodeException(
                ResultCodeEnum.INVALID_ATTRIBUTE_SYNTAX, type.getName() + ": value #0 invalid per syntax");
    }

    /** A schema-aware, modifiable copy of a stored entry (for modify and rename). */
    public Entry toEntry(StoredEntry stored) {
        Entry entry = new DefaultEntry(schema, dn(stored.dn()));
        for (StoredAttribute a : stored.attributes()) {
            AttributeType type = schema.getAttributeType(a.oid());
            if (type == null) {
                continue; // a type removed from the schema since the entry was written
            }
            Attribute attribute = new DefaultAttribute(a.userId(), type);
            boolean humanReadable = type.getSyntax() == null || type.getSyntax().isHumanReadable();
            boolean dnValued = humanReadable
                    && type.getEquality() != null
                    && SchemaConstants.DISTINGUISHED_NAME_MATCH_MR_OID.equals(
                            type.getEquality().getOid());
            for (int i = 0; i < a.size(); i++) {
                try {
                    // Stored values were checked when written: not checked again (StoredValues).
                    attribute.add(
                            humanReadable
                                    ? StoredValues.humanReadable(
                                            type, a.values()[i], dnValued ? normalizedDn(a, i) : normalized(a, i))
                                    : new Value(type, a.values()[i]));
                } catch (LdapInvalidAttributeValueException e) {
                    throw new ResultCodeException(
                            ResultCodeEnum.OTHER, "stored value of " + a.userId() + " no longer valid");
                }
            }
            try {
                entry.add(attribute);
            } catch (LdapException e) {
                throw new ResultCodeException(ResultCodeEnum.OTHER, e.getMessage());
            }
        }
        return entry;
    }

    private static String normalized(StoredAttribute a, int i) {
        return new String(a.normalized()[i], UTF_8);
    }

    /**
     * A stored attribute of {@code type}, a DN-syntax type, holding {@code dns} as given and
     * normalized as the type's equality rule normalizes them (through {@link #storedDns}); a value
     * that does not parse as a DN is its own normalized form, as for a stored value.
     */
    public StoredAttribute storedDnAttribute(AttributeType type, List<String> dns) {
        byte[][] values = new byte[dns.size()][];
        byte[][] normalized = new byte[dns.size()][];
        for (int i = 0; i < values.length; i++) {
            values[i] = dns.get(i).getBytes(UTF_8);
            String n = normalizedDn(dns.get(i));
            normalized[i] = n == null ? values[i] : n.getBytes(UTF_8);
        }
        return new StoredAttribute(type.getOid(), type.getName(), values, type, normalized);
    }

    private String normalizedDn(StoredAttribute a, int i) {
        String n = normalizedDn(new String(a.values()[i], UTF_8));
        return n == null ? normalized(a, i) : n; // what the rule makes of a value it cannot parse
    }

    /**
     * The normalized form of a DN-syntax value, as its equality rule's normalizer gives it (a parse
     * with the schema), through {@link #storedDns}; null when it does not parse. Parsing memberOf's and
     * the stamps' DNs was 10.6% of the writer thread's CPU under the modify mix (JFR), which turns
     * each changed entry into an API entry.
     */
    private String normalizedDn(String user) {
        Dn dn = storedDns.get(user);
        if (dn == null) {
            try {
                dn = new Dn(schema, user);
            } catch (LdapException | IllegalArgumentException e) {
                return null;
            }
            storedDns.put(user, dn);
        }
        return dn.getNormName();
    }
}
