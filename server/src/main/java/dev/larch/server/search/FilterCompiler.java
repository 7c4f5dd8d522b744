package dev.larch.server.search;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.larch.server.directory.RememberedDescriptions;
import dev.larch.server.entry.CaseIgnoreAscii;
import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.protocol.AbsoluteFilters;
import dev.larch.server.store.IndexKeys;
import org.apache.directory.api.ldap.model.entry.Value;
import org.apache.directory.api.ldap.model.filter.AndNode;
import org.apache.directory.api.ldap.model.filter.ApproximateNode;
import org.apache.directory.api.ldap.model.filter.EqualityNode;
import org.apache.directory.api.ldap.model.filter.ExprNode;
import org.apache.directory.api.ldap.model.filter.ExtensibleNode;
import org.apache.directory.api.ldap.model.filter.GreaterEqNode;
import org.apache.directory.api.ldap.model.filter.LeafNode;
import org.apache.directory.api.ldap.model.filter.LessEqNode;
import org.apache.directory.api.ldap.model.filter.NotNode;
import org.apache.directory.api.ldap.model.filter.OrNode;
import org.apache.directory.api.ldap.model.filter.PresenceNode;
import org.apache.directory.api.ldap.model.filter.SubstringNode;
import org.apache.directory.api.ldap.model.name.Ava;
import org.apache.directory.api.ldap.model.name.Dn;
import org.apache.directory.api.ldap.model.name.Rdn;
import org.apache.directory.api.ldap.model.schema.AttributeType;
import org.apache.directory.api.ldap.model.schema.MatchingRule;
import org.apache.directory.api.ldap.model.schema.Normalizer;
import org.apache.directory.api.ldap.model.schema.PrepareString;
import org.apache.directory.api.ldap.model.schema.SchemaManager;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * Compiles a decoded filter against the schema (RFC 4511 section 4.5.1.7): unknown attributes,
 * missing matching rules and values that cannot be normalized become {@link Filter.Undefined}.
 *
 * <p>Thread-safe; caches each attribute type's subtype list and the types descriptions name
 * ({@link RememberedDescriptions}, bounded).
 */
public final class FilterCompiler {
    private final SchemaManager schema;
    private final ConcurrentHashMap<String, String[]> subtypes = new ConcurrentHashMap<>();
    private final RememberedDescriptions descriptions;

    public FilterCompiler(SchemaManager schema) {
        this.schema = schema;
        this.descriptions = new RememberedDescriptions(schema);
    }

    public Filter compile(ExprNode node) {
        return compile(node, Set.of());
    }

    /**
     * Compiles {@code node} for a client that may not read the attributes in {@code unreadable}
     * (OIDs): every item on such an attribute is Undefined, so that a filter cannot be used to
     * test values the client is not allowed to see (a password oracle).
     */
    public Filter compile(ExprNode node, Set<String> unreadable) {
        if (node instanceof AndNode and) {
            return new Filter.And(children(and.getChildren(), unreadable));
        }
        if (node instanceof OrNode or) {
            return new Filter.Or(children(or.getChildren(), unreadable));
        }
        if (node instanceof NotNode not) {
            return new Filter.Not(compile(not.getFirstChild(), unreadable));
        }
        if (node instanceof ExtensibleNode ext) {
            return extensible(ext, unreadable);
        }
        if (node instanceof LeafNode leaf) {
            AttributeType type = type(leaf.getAttribute());
            if (type != null && unreadable.contains(type.getOid())) {
                return new Filter.Undefined("no access to " + leaf.getAttribute());
            }
        }
        if (node instanceof PresenceNode presence) {
            // RFC 4526's (&) and (|), which the decoder hands over as these presence filters.
            if (AbsoluteFilters.TRUE_ATTRIBUTE.equals(presence.getAttribute())) {
                return new Filter.And(List.of());
            }
            if (AbsoluteFilters.FALSE_ATTRIBUTE.equals(presence.getAttribute())) {
                return new Filter.Or(List.of());
            }
            AttributeType type = type(presence.getAttribute());
            return type == null
                    ? new Filter.Undefined("unknown attribute " + presence.getAttribute())
                    : new Filter.Presence(presence.getAttribute(), oids(type));
        }
        if (node instanceof EqualityNode<?> eq) {
            return equality(eq.getAttribute(), eq.getValue());
        }
        if (node instanceof ApproximateNode<?> approx) {
            return equality(approx.getAttribute(), approx.getValue());
        }
        if (node instanceof GreaterEqNode<?> ge) {
            return ordering(ge.getAttribute(), ge.getValue(), true);
        }
        if (node instanceof LessEqNode<?> le) {
            return ordering(le.getAttribute(), le.getValue(), false);
        }
        if (node instanceof SubstringNode sub) {
            return substring(sub);
        }
        return new Filter.Undefined("unsupported filter item");
    }

    private List<Filter> children(List<ExprNode> nodes, Set<String> unreadable) {
        List<Filter> out = new ArrayList<>(nodes.size());
        for (ExprNode n : nodes) {
            out.add(compile(n, unreadable));
        }
        return List.copyOf(out);
    }

    /**
     * The AD in-chain rule. On memberOf it is plain equality: the stored values already hold every
     * group through nested groups ({@code dev.larch.server.group.MemberOfMaintainer}). On a member
     * attribute it asks for the groups that hold an entry, nested groups followed, which needs a
     * walk of the store ({@link Filter.InChain}, read by {@link GroupGraph#bind}).
     */
    private Filter inChain(String attribute, Value value, Set<String> unreadable) {
        AttributeType type = attribute == null ? null : type(attribute);
        if (type == null) {
            return new Filter.Undefined("the in-chain rule needs memberOf, member or uniqueMember");
        }
        if (unreadable.contains(type.getOid())) {
            return new Filter.Undefined("no access to " + attribute);
        }
        if (GroupGraph.MEMBER_OF_OID.equals(type.getOid())) {
            return equality(attribute, value);
        }
        if (!GroupGraph.MEMBER_ATTRIBUTE_OIDS.contains(type.getOid())) {
            return new Filter.Undefined(
                    "the in-chain rule applies to memberOf, member and uniqueMember, not " + attribute);
        }
        String dn;
        try {
            dn = new Dn(schema, text(value)).getNormName();
        } catch (Exception e) {
            return new Filter.Undefined("invalid DN for the in-chain rule");
        }
        return new Filter.InChain("(" + attribute + ":" + GroupGraph.IN_CHAIN_RULE + ":=" + text(value) + ")", dn);
    }

    private Filter equality(String attribute, Value value) {
        AttributeType type = type(attribute);
        if (type == null) {
            return new Filter.Undefined("unknown attribute " + attribute);
        }
        MatchingRule rule = type.getEquality();
        if (rule == null) {
            return new Filter.Undefined(attribute + " has no equality rule");
        }
        byte[] normalized = normalize(rule.getNormalizer(), value);
        if (normalized == null) {
            return new Filter.Undefined("invalid assertion value for " + attribute);
        }
        return new Filter.Equality(
                attribute, oids(type), normalized, IndexKeys.equalityKey(normalized, type.getSyntaxOid()));
    }

    /**
     * Equality on {@code attribute} with an assertion value its equality rule has already normalized
     * (a DN's normalized form for member attributes), so nothing is normalized twice.
     *
     * @return null when the attribute is unknown or has no equality rule
     */
    public Filter normalizedEquality(String attribute, byte[] normalizedValue) {
        AttributeType type = type(attribute);
        if (type == null || type.getEquality() == null) {
            return null;
        }
        return new Filter.Equality(
                attribute, oids(type), normalizedValue, IndexKeys.equalityKey(normalizedValue, type.getSyntaxOid()));
    }

    private Filter ordering(String attribute, Value value, boolean greaterOrEqual) {
        AttributeType type = type(attribute);
        if (type == null) {
            return new Filter.Undefined("unknown attribute " + attribute);
        }
        // Stored values are equality-normalized, so the assertion is too; the ordering rule only
        // decides whether the attribute can be ordered at all (RFC 4511 4.5.1.7.3).
        if (type.getOrdering() == null || type.getEquality() == null) {
            return new Filter.Undefined(attribute + " has no ordering rule");
        }
        byte[] normalized = normalize(type.getEquality().getNormalizer(), text(value), null);
        if (normalized == null) {
            return new Filter.Undefined("invalid assertion value for " + attribute);
        }
        String syntax = type.getSyntaxOid();
        return new Filter.Ordering(
                attribute, oids(type), IndexKeys.orderingKey(normalized, syntax), greaterOrEqual, syntax);
    }

    private Filter substring(SubstringNode node) {
        AttributeType type = type(node.getAttribute());
        if (type == null) {
            return new Filter.Undefined("unknown attribute " + node.getAttribute());
        }
        // RFC 4511 section 4.5.1.7: without a substrings rule the item is Undefined, as ordering
        // items are without an ordering rule; the equality rule must not stand in (member=uid=j*).
        MatchingRule rule = type.getSubstring();
        if (rule == null) {
            return new Filter.Undefined(node.getAttribute() + " has no substring rule");
        }
        Normalizer normalizer = rule.getNormalizer();
        byte[] initial = node.getInitial() == null
                ? null
                : normalize(normalizer, node.getInitial(), PrepareString.AssertionType.SUBSTRING_INITIAL);
        byte[] last = node.getFinal() == null
                ? null
                : normalize(normalizer, node.getFinal(), PrepareString.AssertionType.SUBSTRING_FINAL);
        List<byte[]> any = new ArrayList<>();
        if (node.getAny() != null) {
            for (String piece : node.getAny()) {
                byte[] n = normalize(normalizer, piece, PrepareString.AssertionType.SUBSTRING_ANY);
                if (n == null) {
                    return new Filter.Undefined("invalid substring for " + node.getAttribute());
                }
                if (n.length > 0) {
                    any.add(n);
                }
            }
        }
        if ((node.getInitial() != null && initial == null) || (node.getFinal() != null && last == null)) {
            return new Filter.Undefined("invalid substring for " + node.getAttribute());
        }
        return new Filter.Substring(
                node.getAttribute(), oids(type), emptyToNull(initial), any.toArray(byte[][]::new), emptyToNull(last));
    }

    private Filter extensible(ExtensibleNode node, Set<String> unreadable) {
        String ruleId = node.getMatchingRuleId();
        if (GroupGraph.IN_CHAIN_RULE.equals(ruleId)) {
            return inChain(node.getAttribute(), node.getValue(), unreadable);
        }
        AttributeType type =
                node.getAttribute() == null || node.getAttribute().isEmpty() ? null : type(node.getAttribute());
        if (node.getAttribute() != null && !node.getAttribute().isEmpty() && type == null) {
            return new Filter.Undefined("unknown attribute " + node.getAttribute());
        }
        if (type != null && unreadable.contains(type.getOid())) {
            return new Filter.Undefined("no access to " + node.getAttribute());
        }
        MatchingRule rule;
        if (ruleId == null || ruleId.isEmpty()) {
            rule = type == null ? null : type.getEquality();
        } else {
            try {
                rule = schema.lookupMatchingRuleRegistry(ruleId);
            } catch (Exception e) {
                rule = null;
            }
        }
        if (rule == null) {
            return new Filter.Undefined("unknown matching rule " + ruleId);
        }
        Normalizer normalizer = rule.getNormalizer();
        byte[] assertion = normalize(normalizer, text(node.getValue()), null);
        if (assertion == null) {
            return new Filter.Undefined("invalid assertion value");
        }
        String ruleSyntax = rule.getSyntaxOid();
        String[] oids = type == null ? null : oids(type);
        boolean dnAttributes = node.hasDnAttributes();
        MatchingRule matchingRule = rule;
        Filter.ExtensibleTest test = entry -> {
            for (StoredAttribute a : entry.attributes()) {
                if (oids != null
                        ? !contains(oids, a.oid())
                        : unreadable.contains(a.oid()) || !appliesTo(a.oid(), ruleSyntax, matchingRule)) {
                    continue;
                }
                for (byte[] user : a.values()) {
                    byte[] n = normalize(normalizer, new String(user, UTF_8), null);
                    if (n != null && Arrays.equals(n, assertion)) {
                        return Tri.TRUE;
                    }
                }
            }
            return dnAttributes && dnMatches(entry, oids, normalizer, assertion) ? Tri.TRUE : Tri.FALSE;
        };
        return new Filter.Extensible(node.toString(), test);
    }

    private boolean appliesTo(String oid, String ruleSyntax, MatchingRule rule) {
        AttributeType t = schema.getAttributeType(oid);
        return t != null
                && (rule.equals(t.getEquality()) || (ruleSyntax != null && ruleSyntax.equals(t.getSyntaxOid())));
    }

    private boolean dnMatches(StoredEntry entry, String[] oids, Normalizer normalizer, byte[] assertion) {
        Dn dn;
        try {
            dn = new Dn(schema, entry.dn());
        } catch (Exception e) {
            return false;
        }
        for (Rdn rdn : dn.getRdns()) {
            for (Ava ava : rdn) {
                if (oids != null
                        && (ava.getAttributeType() == null
                                || !contains(oids, ava.getAttributeType().getOid()))) {
                    continue;
                }
                byte[] n = normalize(normalizer, ava.getValue().getString(), null);
                if (n != null && Arrays.equals(n, assertion)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean contains(String[] oids, String oid) {
        for (String o : oids) {
            if (o.equals(oid)) {
                return true;
            }
        }
        return false;
    }

    private AttributeType type(String description) {
        return descriptions.typeOrNull(description);
    }

    /**
     * The type's OID followed by the OIDs of all its subtypes (a filter on name matches cn),
     * without collective attributes.
     */
    String[] oids(AttributeType type) {
        // Looked up first: the lambda captures the type, a new object on every call.
        String[] known = subtypes.get(type.getOid());
        if (known != null) {
            return known;
        }
        return subtypes.computeIfAbsent(type.getOid(), oid -> {
            Set<String> out = new LinkedHashSet<>();
            Deque<AttributeType> pending = new ArrayDeque<>(List.of(type));
            while (!pending.isEmpty()) {
                AttributeType t = pending.pop();
                // Collective attributes live only in subentries, which Larch does not hold.
                if (t.isCollective() || !out.add(t.getOid())) {
                    continue;
                }
                try {
                    Iterator<AttributeType> it =
                            schema.getAttributeTypeRegistry().descendants(t);
                    while (it != null && it.hasNext()) {
                        pending.add(it.next());
                    }
                } catch (Exception e) {
                    // no descendants registered
                }
            }
            return out.toArray(String[]::new);
        });
    }

    private static String text(Value value) {
        if (value == null) {
            return "";
        }
        if (value.isHumanReadable()) {
            return value.getString();
        }
        // An empty value parsed without a schema ("(ou=)" in a targetfilter) has no bytes at all.
        byte[] bytes = value.getBytes();
        return bytes == null ? "" : new String(bytes, UTF_8);
    }

    /**
     * {@link #normalize(Normalizer, String, PrepareString.AssertionType)} of an assertion value: one
     * that arrived as bytes (a filter decoded without the schema) and is caseIgnore ASCII is
     * normalized straight from them, without the string {@link #text} would make of them.
     */
    private static byte[] normalize(Normalizer normalizer, Value value) {
        if (value != null && !value.isHumanReadable() && CaseIgnoreAscii.handles(normalizer)) {
            byte[] bytes = value.getBytes();
            byte[] ascii = bytes == null ? null : CaseIgnoreAscii.normalize(bytes);
            if (ascii != null) {
                return ascii;
            }
        }
        return normalize(normalizer, text(value), null);
    }

    /** The normalized UTF-8 bytes, or null when the normalizer rejects the value. */
    private static byte[] normalize(Normalizer normalizer, String value, PrepareString.AssertionType type) {
        if (type == null && CaseIgnoreAscii.handles(normalizer)) {
            byte[] ascii = CaseIgnoreAscii.normalize(value);
            if (ascii != null) {
                return ascii;
            }
        }
        try {
            String n = type == null ? normalizer.normalize(value) : normalizer.normalize(value, type);
            return n == null ? null : n.getBytes(UTF_8);
        } catch (Exception e) {
            return null;
        }
    }

    private static byte[] emptyToNull(byte[] b) {
        return b == null || b.length == 0 ? null : b;
    }
}
