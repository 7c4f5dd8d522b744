package dev.larch.server.search;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.larch.server.directory.AttributeDescriptions;
import dev.larch.server.entry.StoredEntry;
import org.apache.directory.api.ldap.model.schema.AttributeType;
import org.apache.directory.api.ldap.model.schema.SchemaManager;
import org.apache.directory.api.ldap.model.schema.UsageEnum;

/**
 * Which attributes a search returns (RFC 4511 section 4.5.1.8): none listed or {@code *} means
 * all user attributes, {@code +} all operational ones (RFC 3673), {@code 1.1} none, and named
 * attributes include their subtypes.
 */
public final class AttributeSelection {
    private final boolean allUser;
    private final boolean allOperational;
    private final Set<String> named;
    /**
     * The computed operational attributes ({@link ResultEntries#COMPUTED_OIDS}) named: asked about
     * five times per entry returned, nearly always empty (a HashSet look-up each was 0.6% of the
     * server's CPU on the addressing mix, async-profiler).
     */
    private final Set<String> namedComputed;

    private final SchemaManager schema;

    /**
     * What {@link #includes(StoredEntry, int)} decided, by the store's attribute number: {@link #NOT_YET},
     * {@link #EXCLUDED} or {@link #INCLUDED}. Asked for every attribute of every entry returned, some
     * twenty an inetOrgPerson, it was a HashSet look-up per type and supertype each (2.7% of the
     * server's CPU on the addressing mix at 1M entries, async-profiler). Read without a lock: a thread
     * that misses a decision another made decides it again, the same way. Shared by the selections
     * {@link #withValues} makes from this one; a selection serves one store, whose numbers are stable.
     */
    private final Decisions decisions;

    private static final byte NOT_YET = 0;
    private static final byte EXCLUDED = 1;
    private static final byte INCLUDED = 2;
    /** Numbers past this are decided each time: the store hands them out densely from 0. */
    private static final int MAX_REMEMBERED_NUMBER = 1 << 16;

    /** Which values of the returned attributes are sent (RFC 3876); null for all. */
    private final MatchedValues values;

    private AttributeSelection(
            boolean allUser,
            boolean allOperational,
            Set<String> named,
            SchemaManager schema,
            MatchedValues values,
            Decisions decisions) {
        this.allUser = allUser;
        this.allOperational = allOperational;
        this.named = named;
        Set<String> computed = new HashSet<>(named);
        computed.retainAll(ResultEntries.COMPUTED_OIDS);
        this.namedComputed = Set.copyOf(computed);
        this.schema = schema;
        this.values = values;
        this.decisions = decisions;
    }

    public static AttributeSelection of(List<String> requested, SchemaManager schema) {
        boolean allUser = requested == null || requested.isEmpty();
        boolean allOperational = false;
        Set<String> named = new HashSet<>();
        if (requested != null) {
            for (String r : requested) {
                String name = r.trim();
                if (name.equals("*")) {
                    allUser = true;
                } else if (name.equals("+")) {
                    allOperational = true;
                } else if (!name.equals("1.1") && !name.isEmpty() && AttributeDescriptions.canName(name)) {
                    AttributeType type = schema.getAttributeType(name);
                    if (type != null) {
                        named.add(type.getOid());
                    }
                }
            }
        }
        return new AttributeSelection(allUser, allOperational, named, schema, null, new Decisions());
    }

    /** The same attributes, of whose values only those {@code values} matches are sent; null for all. */
    public AttributeSelection withValues(MatchedValues values) {
        if (values == this.values) {
            return this; // the common case, no matched values on a selection without them
        }
        return new AttributeSelection(allUser, allOperational, named, schema, values, decisions);
    }

    /** Which values of the returned attributes are sent; null for all. */
    MatchedValues values() {
        return values;
    }

    /** Whether the attribute with this OID is to be returned. */
    public boolean includes(String oid) {
        return includes(oid, schema.getAttributeType(oid));
    }

    /**
     * Whether an attribute of this type is to be returned; callers that hold the type skip a
     * registry lookup per attribute per entry (110 of 1,252 CPU samples under the messaging mix).
     */
    public boolean includes(String oid, AttributeType type) {
        boolean operational = type != null && type.getUsage() != UsageEnum.USER_APPLICATIONS;
        if (operational ? allOperational : allUser) {
            return true;
        }
        for (AttributeType t = type; t != null; t = t.getSuperior()) {
            if (named.contains(t.getOid())) {
                return true;
            }
        }
        return type == null ? false : named.contains(oid);
    }

    /**
     * Whether attribute {@code index} of {@code entry} is to be returned: {@link #includes(String,
     * AttributeType)}, remembered by the store's number for the type when the entry has one.
     */
    public boolean includes(StoredEntry entry, int index) {
        int number = entry.numberAt(index);
        byte[] known = decisions.byNumber;
        if (number >= 0 && number < known.length && known[number] != NOT_YET) {
            return known[number] == INCLUDED;
        }
        boolean included = includes(entry.oidAt(index), entry.typeAt(index));
        if (number >= 0 && number < MAX_REMEMBERED_NUMBER) {
            decisions.remember(number, included);
        }
        return included;
    }

    /**
     * Whether a computed operational attribute (hasSubordinates, entryDN, …) is asked for.
     *
     * @param oid one of {@link ResultEntries#COMPUTED_OIDS}; any other is never asked for here
     */
    public boolean includesComputed(String oid) {
        return allOperational || (!namedComputed.isEmpty() && namedComputed.contains(oid));
    }

    /** The decisions of {@link #includes(StoredEntry, int)}, by number; see {@link #decisions}. */
    private static final class Decisions {
        volatile byte[] byNumber = new byte[0];

        synchronized void remember(int number, boolean included) {
            byte[] known = byNumber;
            if (number >= known.length) {
                known = Arrays.copyOf(known, Math.max(number + 1, Math.min(2 * known.length, MAX_REMEMBERED_NUMBER)));
            }
            known[number] = included ? INCLUDED : EXCLUDED;
            byNumber = known;
        }
    }
}
