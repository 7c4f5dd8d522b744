package dev.larch.server.search.sort;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import dev.larch.server.directory.AttributeDescriptions;
import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.search.EntryScreen;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.message.controls.SortKey;
import org.apache.directory.api.ldap.model.message.controls.SortResultCode;
import org.apache.directory.api.ldap.model.schema.AttributeType;
import org.apache.directory.api.ldap.model.schema.LdapComparator;
import org.apache.directory.api.ldap.model.schema.MatchingRule;
import org.apache.directory.api.ldap.model.schema.Normalizer;
import org.apache.directory.api.ldap.model.schema.SchemaManager;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * The order a server-side sort request asks for (RFC 2891), resolved against the schema: for each
 * key, the attribute, the ordering rule (the one named, else the attribute's ORDERING rule, else the
 * ordering rule that X.520 pairs with its EQUALITY rule: caseIgnoreMatch with caseIgnoreOrderingMatch
 * and so on, so the name attributes, which have no ORDERING rule, sort as users expect) and the
 * direction.
 *
 * <p>An entry's sort key is, per sort key, its least value under the rule (its greatest when reversed)
 * among the values the client may read; an entry without one sorts after every entry with one (RFC
 * 2891 section 2.2), in both directions.
 *
 * <p>Immutable and thread-safe.
 */
public final class SortOrder implements Comparator<String[]>, SortResolution {
    /** EQUALITY rule OID to the ORDERING rule that orders the same normalized values. */
    private static final Map<String, String> ORDERING_FOR_EQUALITY = Map.of(
            "2.5.13.2", "2.5.13.3", // caseIgnoreMatch -> caseIgnoreOrderingMatch
            "2.5.13.5", "2.5.13.6", // caseExactMatch -> caseExactOrderingMatch
            "2.5.13.8", "2.5.13.9", // numericStringMatch -> numericStringOrderingMatch
            "2.5.13.14", "2.5.13.15", // integerMatch -> integerOrderingMatch
            "2.5.13.27", "2.5.13.28", // generalizedTimeMatch -> generalizedTimeOrderingMatch
            "1.3.6.1.4.1.1466.109.114.2", "2.5.13.3", // caseIgnoreIA5Match
            "1.3.6.1.4.1.1466.109.114.1", "2.5.13.6"); // caseExactIA5Match

    private record Key(AttributeType type, MatchingRule rule, boolean reverse) {}

    /** Why a sort request cannot be honoured: the RFC 2891 sortResult and the attribute it is about. */
    public record Refusal(SortResultCode code, String attribute, String message) implements SortResolution {}

    private final List<Key> keys;

    private SortOrder(List<Key> keys) {
        this.keys = keys;
    }

    /**
     * The order {@code sortKeys} ask for.
     *
     * @return a {@link SortOrder}, or a {@link Refusal} when a key names no attribute type
     *     (noSuchAttribute) or one that cannot be ordered (inappropriateMatching)
     */
    public static SortResolution resolve(List<SortKey> sortKeys, SchemaManager schema) {
        if (sortKeys == null || sortKeys.isEmpty()) {
            return new Refusal(SortResultCode.OTHER, null, "the sort control names no sort key");
        }
        List<Key> keys = new ArrayList<>(sortKeys.size());
        for (SortKey sortKey : sortKeys) {
            String name = sortKey.getAttributeTypeDesc();
            AttributeType type = AttributeDescriptions.typeOrNull(schema, name);
            if (type == null) {
                return new Refusal(SortResultCode.NOSUCHATTRIBUTE, name, "no attribute type " + name + " to sort by");
            }
            MatchingRule rule;
            if (sortKey.getMatchingRuleId() != null
                    && !sortKey.getMatchingRuleId().isEmpty()) {
                rule = lookup(schema, sortKey.getMatchingRuleId());
                if (rule == null) {
                    return new Refusal(
                            SortResultCode.INAPPROPRIATEMATCHING,
                            name,
                            "no matching rule " + sortKey.getMatchingRuleId() + " to sort " + name + " by");
                }
            } else {
                rule = type.getOrdering();
                if (rule == null && type.getEquality() != null) {
                    String ordering =
                            ORDERING_FOR_EQUALITY.get(type.getEquality().getOid());
                    rule = ordering == null ? null : lookup(schema, ordering);
                }
                if (rule == null) {
                    return new Refusal(
                            SortResultCode.INAPPROPRIATEMATCHING, name, name + " has no ordering rule to sort by");
                }
            }
            keys.add(new Key(type, rule, sortKey.isReverseOrder()));
        }
        return new SortOrder(List.copyOf(keys));
    }

    private static MatchingRule lookup(SchemaManager schema, String nameOrOid) {
        if (!AttributeDescriptions.canName(nameOrOid)) {
            return null; // the schema manager throws on characters past U+00FF, as for attribute names
        }
        try {
            return schema.lookupMatchingRuleRegistry(nameOrOid);
        } catch (LdapException e) {
            return null;
        }
    }

    /**
     * The sort keys of {@code entry} as the client may see them: one normalized value per key, null
     * where the entry has none the client may read.
     */
    public String[] keysOf(StoredEntry entry, EntryScreen screen) {
        String[] out = new String[keys.size()];
        for (int k = 0; k < out.length; k++) {
            Key key = keys.get(k);
            StoredAttribute attribute = entry.attribute(key.type().getOid());
            if (attribute == null || !screen.mayRead(entry, attribute.oid())) {
                continue;
            }
            String chosen = null;
            for (byte[] value : attribute.values()) {
                String normalized = normalize(key.rule(), new String(value, UTF_8));
                if (chosen == null) {
                    chosen = normalized;
                } else {
                    int c = compare(key.rule(), normalized, chosen);
                    if (key.reverse() ? c > 0 : c < 0) {
                        chosen = normalized;
                    }
                }
            }
            out[k] = chosen;
        }
        return out;
    }

    /** A virtual list view's assertion value as the first sort key's rule normalizes it. */
    public String firstKeyOf(byte[] assertionValue) {
        return normalize(keys.get(0).rule(), new String(assertionValue, UTF_8));
    }

    /**
     * Orders an entry's first sort key against a normalized value in the first key's direction; a
     * missing key comes after every value.
     */
    public int compareFirstKey(String entryKey, String value) {
        if (entryKey == null) {
            return 1;
        }
        int c = compare(keys.get(0).rule(), entryKey, value);
        return keys.get(0).reverse() ? -c : c;
    }

    /** Orders two entries' {@link #keysOf keys}: key by key, a missing value last in either direction. */
    @Override
    public int compare(String[] a, String[] b) {
        for (int k = 0; k < keys.size(); k++) {
            String x = a[k];
            String y = b[k];
            if (x == null || y == null) {
                if (x != y) {
                    return x == null ? 1 : -1;
                }
                continue;
            }
            int c = compare(keys.get(k).rule(), x, y);
            if (c != 0) {
                return keys.get(k).reverse() ? -c : c;
            }
        }
        return 0;
    }

    private static String normalize(MatchingRule rule, String value) {
        Normalizer normalizer = rule.getNormalizer();
        if (normalizer == null) {
            return value;
        }
        try {
            return normalizer.normalize(value);
        } catch (LdapException | RuntimeException e) {
            return value; // a value the rule cannot normalize still sorts, by its own characters
        }
    }

    private static int compare(MatchingRule rule, String x, String y) {
        LdapComparator<? super Object> comparator = rule.getLdapComparator();
        if (comparator != null) {
            try {
                return comparator.compare(x, y);
            } catch (RuntimeException e) {
                // fall through: a value the rule cannot compare sorts by its characters
            }
        }
        return x.compareTo(y);
    }
}
