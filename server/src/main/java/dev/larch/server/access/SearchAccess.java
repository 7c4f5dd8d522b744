package dev.larch.server.access;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.larch.server.directory.Directory;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.search.EntryScreen;
import dev.larch.server.search.Filter;
import dev.larch.server.search.FilterCompiler;
import dev.larch.server.search.Tri;
import org.apache.directory.api.ldap.model.filter.BranchNode;
import org.apache.directory.api.ldap.model.filter.ExprNode;
import org.apache.directory.api.ldap.model.filter.ExtensibleNode;
import org.apache.directory.api.ldap.model.filter.LeafNode;
import org.apache.directory.api.ldap.model.schema.AttributeType;

/**
 * One search as access control sees it. An entry is returned only when the client holds {@code read}
 * on it; each filter component on an attribute the client may not {@code search} there is judged
 * Undefined (RFC 4511 section 4.5.1.7), so a filter cannot be used to learn a hidden value; attributes
 * without {@code read} are left out of the result.
 *
 * <p>The filter's variants (one per set of unsearchable attributes met) are compiled once per search;
 * a filter names at most {@value #MAX_TRACKED} distinct attributes that are tracked one by one, beyond
 * which the rest count as unsearchable together when any is. Not thread-safe: one search, one thread
 * at a time.
 */
final class SearchAccess implements EntryScreen {
    static final int MAX_TRACKED = 63;

    private final Decider decider;
    private final ExprNode filterNode;
    private final FilterCompiler compiler;
    private final String[] filterOids;
    /** Made when the first entry hides a filter attribute: most searches meet none. */
    private Map<Long, Filter> variants;
    /** An extensible match without an attribute tests every attribute, so every one must be searchable. */
    private final boolean testsEveryAttribute;

    /** Made on first use, by a filter that tests every attribute. */
    private Map<Set<String>, Filter> everyAttributeVariants;

    /** Screens memberOf values to the groups the client may read; null when the filter cannot test memberOf. */
    private final GroupVisibility groups;

    SearchAccess(Decider decider, ExprNode filterNode, FilterCompiler compiler, AciSchema schema, Directory directory) {
        this.decider = decider;
        this.filterNode = filterNode;
        this.compiler = compiler;
        // A filter of one component names one attribute at most: no hash set (150 bytes a search).
        Collection<String> oids = filterNode instanceof LeafNode ? new ArrayList<>(1) : new HashSet<>();
        this.testsEveryAttribute = collect(filterNode, schema, oids);
        this.filterOids = oids.toArray(String[]::new);
        this.groups = testsEveryAttribute || oids.contains(Directory.MEMBER_OF_OID)
                ? new GroupVisibility(decider, directory)
                : null;
    }

    @Override
    public Tri evaluate(StoredEntry entry, Filter filter) {
        EntryRights rights =
                entry.parentId() == 0 && entry.id() == 0 ? decider.decideVirtual(entry) : decider.decide(entry);
        if ((rights.onEntry() & Rights.READ) == 0) {
            return Tri.FALSE;
        }
        if (groups != null) {
            // A memberOf value naming a group the client may not read is judged as absent.
            StoredEntry screened = groups.screen(entry);
            entry = screened;
        }
        if (testsEveryAttribute) {
            return evaluateOnEveryAttribute(entry, rights);
        }
        long hidden = 0;
        for (int i = 0; i < filterOids.length; i++) {
            if ((rights.on(filterOids[i]) & Rights.SEARCH) == 0) {
                hidden |= 1L << Math.min(i, MAX_TRACKED);
            }
        }
        if (hidden == 0) {
            return filter.evaluate(entry);
        }
        if (variants == null) {
            variants = new HashMap<>();
        }
        return variants.computeIfAbsent(hidden, this::compileWithout).evaluate(entry);
    }

    @Override
    public boolean mayRead(StoredEntry entry, String oid) {
        EntryRights rights =
                entry.parentId() == 0 && entry.id() == 0 ? decider.decideVirtual(entry) : decider.decide(entry);
        return (rights.on(oid) & Rights.READ) != 0;
    }

    @Override
    public boolean mayReadEntry(StoredEntry entry) {
        return (decider.decide(entry).onEntry() & Rights.READ) != 0;
    }

    @Override
    public Tri mayReadEntryUnread(long id, long parentId) {
        EntryRights rights = decider.decideUnread(id, parentId);
        return rights == null ? Tri.UNDEFINED : Tri.of((rights.onEntry() & Rights.READ) != 0);
    }

    private Tri evaluateOnEveryAttribute(StoredEntry entry, EntryRights rights) {
        Set<String> unsearchable = new HashSet<>();
        for (String oid : filterOids) {
            if ((rights.on(oid) & Rights.SEARCH) == 0) {
                unsearchable.add(oid);
            }
        }
        for (var a : entry.attributes()) {
            if ((rights.on(a.oid()) & Rights.SEARCH) == 0) {
                unsearchable.add(a.oid());
            }
        }
        if (everyAttributeVariants == null) {
            everyAttributeVariants = new HashMap<>();
        }
        Filter variant = everyAttributeVariants.get(unsearchable);
        if (variant == null) {
            variant = compiler.compile(filterNode, unsearchable);
            if (everyAttributeVariants.size() >= MAX_TRACKED) {
                everyAttributeVariants.clear();
            }
            everyAttributeVariants.put(Set.copyOf(unsearchable), variant);
        }
        return variant.evaluate(entry);
    }

    private Filter compileWithout(long hidden) {
        Set<String> unsearchable = new HashSet<>();
        for (int i = 0; i < filterOids.length; i++) {
            if ((hidden & (1L << Math.min(i, MAX_TRACKED))) != 0) {
                unsearchable.add(filterOids[i]);
            }
        }
        return compiler.compile(filterNode, unsearchable);
    }

    /**
     * Adds the OIDs of the attributes the filter names (those the schema knows; others are Undefined
     * anyway) and says whether some component tests every attribute.
     */
    private static boolean collect(ExprNode node, AciSchema schema, Collection<String> out) {
        boolean every = false;
        if (node instanceof BranchNode branch) {
            List<ExprNode> children = new ArrayList<>(branch.getChildren());
            for (ExprNode child : children) {
                every |= collect(child, schema, out);
            }
        } else if (node instanceof LeafNode leaf) {
            String name = leaf.getAttribute();
            AttributeType type = leaf.getAttributeType();
            String oid = type != null ? type.getOid() : name == null || name.isEmpty() ? null : schema.oid(name);
            if (oid != null) {
                out.add(oid);
            } else if (node instanceof ExtensibleNode) {
                every = true;
            }
        }
        return every;
    }
}
