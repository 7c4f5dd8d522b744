package dev.larch.server.write;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.larch.config.IndexKind;
import dev.larch.server.directory.Directory;
import dev.larch.server.directory.SchemaChecker;
import dev.larch.server.directory.SubtreeNames;
import dev.larch.server.entry.StoredEntry;
import dev.larch.server.error.ResultCodeException;
import dev.larch.server.search.Filter;
import dev.larch.server.search.FilterCompiler;
import dev.larch.server.search.SearchPlanner;
import dev.larch.server.search.Tri;
import dev.larch.server.store.DnKeys;
import dev.larch.server.store.IdSet;
import dev.larch.server.store.ReadTxn;
import dev.larch.server.store.WriteTxn;
import org.apache.directory.api.ldap.model.entry.Attribute;
import org.apache.directory.api.ldap.model.entry.Entry;
import org.apache.directory.api.ldap.model.entry.Value;
import org.apache.directory.api.ldap.model.exception.LdapException;
import org.apache.directory.api.ldap.model.filter.EqualityNode;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.name.Dn;
import org.apache.directory.api.ldap.model.schema.AttributeType;

/**
 * The rules that keep entries consistent with each other, checked and applied inside the write
 * transaction of the change that would break them:
 *
 * <ul>
 *   <li>referential integrity: deleting or renaming an entry removes or renames its DN in every
 *       reference attribute ({@code integrity.reference-attributes}) of every entry that holds it;
 *   <li>attribute uniqueness: a value of a unique attribute ({@code integrity.unique-attributes})
 *       already held by another entry of the suffix is refused with constraintViolation, which does
 *       not name the other entry.
 * </ul>
 *
 * <p>Both find the other entries through the attribute's equality index only, never a scan; the
 * configuration refuses an attribute listed without one. A group that would lose its last member
 * (a required attribute) keeps the empty DN as its member, as OpenLDAP's refint overlay can be told
 * to, so it stays valid. Each referring entry rewritten costs one entry write in the same transaction.
 *
 * <p>Thread-safe; used on the writer thread.
 */
public final class Integrity {
    /** No references kept, nothing unique: for tests and tools that write without the rules. */
    public static final Integrity NONE = new Integrity(null, null, null, null, List.of(), List.of());

    private final Directory directory;
    private final ModifyStamps stamps;
    private final FilterCompiler filters;
    private final SearchPlanner planner;
    private final SchemaChecker checker;
    private final List<String> referenceAttributes;
    private final List<String> uniqueAttributes;

    public Integrity(
            Directory directory,
            FilterCompiler filters,
            SearchPlanner planner,
            SchemaChecker checker,
            List<String> referenceAttributes,
            List<String> uniqueAttributes) {
        this.directory = directory;
        this.stamps = directory == null
                ? null
                : new ModifyStamps(directory.schemaNormalizer().schema());
        this.filters = filters;
        this.planner = planner;
        this.checker = checker;
        this.referenceAttributes = List.copyOf(referenceAttributes);
        this.uniqueAttributes = List.copyOf(uniqueAttributes);
    }

    /**
     * Refuses {@code entry} (being written as entry {@code selfId}, or -1 when new) when one of its
     * values of a unique attribute among {@code touched} (attribute type OIDs; null for all) belongs
     * to another entry already.
     */
    public void requireUnique(ReadTxn txn, Entry entry, long selfId, Set<String> touched) {
        for (String name : uniqueAttributes) {
            Attribute attribute = entry.get(name);
            if (attribute == null
                    || (touched != null
                            && !touched.contains(attribute.getAttributeType().getOid()))) {
                continue;
            }
            for (Value value : attribute) {
                Filter taken = filters.compile(new EqualityNode<>(name, value.getString()));
                for (long id : holders(txn, taken)) {
                    if (id != selfId) {
                        throw new ResultCodeException(
                                ResultCodeEnum.CONSTRAINT_VIOLATION,
                                name + " value " + value.getString()
                                        + " is already in use (integrity.unique-attributes)");
                    }
                }
            }
        }
    }

    /** Whether any reference attribute is kept: when none is, {@link #referencesMoved} does nothing. */
    public boolean keepsReferences() {
        return !referenceAttributes.isEmpty();
    }

    /**
     * Rewrites every reference to {@code oldDn} in the reference attributes: to {@code newDn}, or
     * away when it is null (the entry was deleted).
     *
     * @param modifier recorded as modifiersName of each entry rewritten
     */
    public void referencesMoved(WriteTxn txn, Dn oldDn, Dn newDn, Dn modifier) {
        for (String name : referenceAttributes) {
            Filter refers = filters.compile(new EqualityNode<>(name, oldDn.getName()));
            for (long id : holders(txn, refers)) {
                StoredEntry before = directory.load(txn, id);
                Entry entry = directory.schemaNormalizer().toEntry(before);
                rewrite(entry, entry.get(name), oldDn, newDn);
                stamps.stamp(entry, modifier);
                directory.replace(txn, before, entry);
            }
        }
    }

    /**
     * Rewrites every reference to an entry below the entry renamed from {@code oldRoot} to {@code
     * newRoot} (its descendants moved with it), as {@link #referencesMoved} of each descendant would.
     * The references are found by one range read of each reference attribute's equality index ({@link
     * SubtreeNames}), so a rename reads only the descendants something refers to, however many it
     * has. A reference naming a DN below the old root that no entry had is left as it is.
     *
     * @param oldRoot the renamed entry's DN before the rename (user form)
     * @param newRoot its DN after it (user form, as the store spells it)
     * @param modifier recorded as modifiersName of each entry rewritten
     * @return how many descendants something referred to
     */
    public int referencesMovedBelow(WriteTxn txn, String oldRoot, String newRoot, Dn modifier) {
        if (!keepsReferences()) {
            return 0;
        }
        List<String> oids = new ArrayList<>(referenceAttributes.size());
        for (String name : referenceAttributes) {
            AttributeType type = directory.schemaNormalizer().schema().getAttributeType(name);
            // The configuration refuses an attribute without one; tools may run without the check.
            // Only DN-valued attributes can name an entry, and only their keys are ranged by DN.
            if (directory.store().indexes().isIndexed(type.getOid(), IndexKind.EQUALITY)
                    && DnKeys.reverses(type.getSyntaxOid())) {
                oids.add(type.getOid());
            }
        }
        String oldRootNorm = directory.schemaNormalizer().dn(oldRoot).getNormName();
        String newRootNorm = directory.schemaNormalizer().dn(newRoot).getNormName();
        SubtreeNames below = new SubtreeNames(txn, directory, List.of(oldRootNorm));
        Set<String> named = new LinkedHashSet<>();
        for (String oid : oids) {
            for (SubtreeNames.Named record : below.below(oid)) {
                named.add(record.relativeName());
            }
        }
        // Every descendant's new DN is known before any reference is rewritten.
        Map<Dn, String> moved = new LinkedHashMap<>();
        for (String name : named) {
            long id = resolveQuietly(txn, name + "," + newRootNorm);
            String newDn = id == ReadTxn.NOT_FOUND ? null : directory.dnOf(txn, id);
            if (newDn != null) {
                moved.put(directory.schemaNormalizer().dn(name + "," + oldRootNorm), newDn);
            }
        }
        for (Map.Entry<Dn, String> m : moved.entrySet()) {
            referencesMoved(txn, m.getKey(), directory.schemaNormalizer().dn(m.getValue()), modifier);
        }
        return moved.size();
    }

    /** The ID of the entry with this normalized DN; NOT_FOUND as well when it does not parse. */
    private long resolveQuietly(ReadTxn txn, String normalizedDn) {
        try {
            return directory.resolve(txn, directory.schemaNormalizer().dn(normalizedDn));
        } catch (RuntimeException notADn) {
            return ReadTxn.NOT_FOUND;
        }
    }

    private void rewrite(Entry entry, Attribute attribute, Dn oldDn, Dn newDn) {
        try {
            List<Value> stale = new ArrayList<>();
            for (Value value : attribute) {
                if (sameDn(value.getString(), oldDn)) {
                    stale.add(value);
                }
            }
            for (Value value : stale) {
                attribute.remove(value);
            }
            if (newDn != null && !attribute.contains(newDn.getName())) {
                attribute.add(newDn.getName());
            }
            if (attribute.size() == 0) {
                AttributeType type = attribute.getAttributeType();
                entry.removeAttributes(type);
                try {
                    checker.check(entry);
                } catch (ResultCodeException required) {
                    entry.add(type, ""); // a required member: the empty DN keeps the group valid
                }
            }
        } catch (LdapException e) {
            throw new ResultCodeException(ResultCodeEnum.OTHER, "cannot rewrite a reference: " + e.getMessage());
        }
    }

    private boolean sameDn(String value, Dn dn) {
        try {
            return directory.schemaNormalizer().dn(value).equals(dn);
        } catch (RuntimeException notADn) {
            return false;
        }
    }

    /** The IDs of the entries {@code filter} (an equality on an indexed attribute) holds for. */
    private List<Long> holders(ReadTxn txn, Filter filter) {
        IdSet candidates = planner.plan(txn, filter).ids();
        List<Long> out = new ArrayList<>();
        if (candidates == null) {
            return out; // not indexed: refused by the configuration, so only in tools without it
        }
        for (int i = 0; i < candidates.size(); i++) {
            StoredEntry entry = directory.load(txn, candidates.get(i));
            boolean exact = filter instanceof Filter.Equality equality && equality.indexIsExact();
            if (entry != null && (exact || filter.evaluate(entry) == Tri.TRUE)) {
                out.add(entry.id());
            }
        }
        return out;
    }
}
