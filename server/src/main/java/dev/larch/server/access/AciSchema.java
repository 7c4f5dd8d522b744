package dev.larch.server.access;

import java.text.ParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

import dev.larch.server.directory.RememberedDescriptions;
import dev.larch.server.search.Filter;
import dev.larch.server.search.FilterCompiler;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.filter.ExprNode;
import org.apache.directory.api.ldap.model.filter.FilterParser;
import org.apache.directory.api.ldap.model.name.Ava;
import org.apache.directory.api.ldap.model.name.Dn;
import org.apache.directory.api.ldap.model.name.Rdn;
import org.apache.directory.api.ldap.model.schema.AttributeType;
import org.apache.directory.api.ldap.model.schema.SchemaManager;

/**
 * What access control needs from the schema: attribute names to OIDs and supertypes, DNs in one
 * canonical string form, and {@code targetfilter} values compiled like search filters.
 *
 * <p>The canonical form of a DN is its RDNs, left to right, joined by {@code ,}; each AVA is the
 * attribute's OID, {@code =} and the value as its equality rule normalizes it, with {@code \} and
 * {@code ,} escaped. Two DNs that name the same entry have the same canonical form.
 *
 * <p>Thread-safe; the lineage cache holds one array per attribute type of the schema at most.
 */
public final class AciSchema {
    private final SchemaManager schema;
    private final FilterCompiler filters;
    private final ConcurrentHashMap<String, String[]> lineages = new ConcurrentHashMap<>();
    private final RememberedDescriptions descriptions;

    public AciSchema(SchemaManager schema) {
        this.schema = schema;
        this.filters = new FilterCompiler(schema);
        this.descriptions = new RememberedDescriptions(schema);
    }

    SchemaManager schema() {
        return schema;
    }

    /** The OID of the attribute type a name or OID denotes, or null when the schema has none. */
    String oid(String name) {
        // Screened there: the schema manager throws on names outside the RFC 4512 alphabet (found by the fuzzer).
        AttributeType type = descriptions.typeOrNull(name);
        return type == null ? null : type.getOid();
    }

    /** The attribute's OID followed by those of its supertypes, nearest first; just the OID if unknown. */
    String[] lineage(String oid) {
        // Looked up first: computeIfAbsent's method reference is a new object on every call.
        String[] known = lineages.get(oid);
        return known != null ? known : lineages.computeIfAbsent(oid, this::computeLineage);
    }

    private String[] computeLineage(String oid) {
        List<String> chain = new ArrayList<>();
        AttributeType type = schema.getAttributeType(oid);
        chain.add(oid);
        for (int i = 0; type != null && type.getSuperior() != null && i < 16; i++) {
            type = type.getSuperior();
            chain.add(type.getOid());
        }
        return chain.toArray(String[]::new);
    }

    /**
     * The canonical form of a DN string, possibly holding {@code *} wildcards in values.
     *
     * @throws IllegalArgumentException when the string is no DN or names an unknown attribute
     */
    DnPattern pattern(String dn) {
        Dn parsed = parse(dn);
        return new DnPattern(canonical(parsed), parsed.size());
    }

    /** Parses a DN against the schema; IllegalArgumentException with a short reason when it cannot. */
    Dn parse(String dn) {
        try {
            return new Dn(schema, dn);
        } catch (LdapException | IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + dn + "' is not a valid DN", e);
        }
    }

    /** The canonical string of a schema-aware DN. */
    static String canonical(Dn dn) {
        StringBuilder out = new StringBuilder(dn.getName().length());
        // getRdn(0) is the leftmost RDN; iterating a Dn goes from the root instead.
        for (int i = 0; i < dn.size(); i++) {
            Rdn rdn = dn.getRdn(i);
            if (out.length() > 0) {
                out.append(',');
            }
            boolean first = true;
            for (Ava ava : rdn) {
                if (!first) {
                    out.append('+');
                }
                first = false;
                AttributeType type = ava.getAttributeType();
                out.append(type == null ? ava.getNormType() : type.getOid()).append('=');
                // The normalizers of string rules keep one insignificant space at each end (RFC 4518).
                String value = ava.getValue().getNormalized();
                appendEscaped(out, (value == null ? ava.getValue().getString() : value).strip());
            }
        }
        return out.toString();
    }

    private static void appendEscaped(StringBuilder out, String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\\' || c == ',' || c == '+') {
                out.append('\\');
            }
            out.append(c);
        }
    }

    /**
     * A {@code targetfilter} value compiled against the schema.
     *
     * @throws IllegalArgumentException when it is not an RFC 4515 filter
     */
    Filter filter(String text) {
        ExprNode node;
        try {
            node = FilterParser.parse(text);
        } catch (ParseException | RuntimeException e) {
            throw new IllegalArgumentException("'" + text + "' is not a valid LDAP filter", e);
        }
        return filters.compile(node);
    }
}
