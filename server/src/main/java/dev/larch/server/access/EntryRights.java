package dev.larch.server.access;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.larch.server.search.Tri;

/**
 * What one requester may do to one entry: the rules that apply to it, reduced per attribute on demand.
 * Deny wins over allow; no allow means no right. A rule whose subject is UNDEFINED counts as a deny
 * and never as an allow.
 *
 * <p>Not thread-safe; per-attribute answers are remembered, so entries sharing one (under the same
 * parent, with rules that do not look at the entry itself) cost one map lookup per attribute.
 */
final class EntryRights {
    /** A rule that applies, with the attributes its ACI covers. */
    record Applied(boolean allow, int rights, AttributeScope attributes) {}

    /** The rights that change an attribute's values. */
    private static final int WRITES = Rights.WRITE | Rights.SELFWRITE;

    private final List<Applied> applied;
    private final AciSchema schema;
    private final Map<String, Integer> byAttribute = new HashMap<>();
    private int entryAllowed = -1;

    EntryRights(List<Applied> applied, AciSchema schema) {
        this.applied = applied;
        this.schema = schema;
    }

    /** Builds the list of rules that apply, given each ACI's subject verdict. */
    static void collect(Aci aci, Requester who, EntryView entry, List<Applied> out) {
        for (Aci.Rule rule : aci.rules()) {
            Tri verdict = rule.subject().matches(who, entry);
            if (verdict == Tri.TRUE || (!rule.allow() && verdict == Tri.UNDEFINED)) {
                out.add(new Applied(rule.allow(), rule.rights(), aci.target().attributes()));
            }
        }
    }

    /** The rights held on the attribute {@code oid} of this entry. */
    int on(String oid) {
        Integer known = byAttribute.get(oid);
        if (known != null) {
            return known;
        }
        String[] lineage = schema.lineage(oid);
        boolean aci = AccessControl.ACI_OID.equals(oid);
        int allowed = 0;
        int denied = 0;
        for (Applied a : applied) {
            if (a.attributes().covers(lineage)) {
                if (a.allow()) {
                    // As in 389-DS: writing the rules themselves needs an allow that names aci, never
                    // one that covers it by "*" or "!=", or a grant to edit an entry would be a grant
                    // to rewrite who may do what.
                    allowed |= aci && !a.attributes().names(oid) ? a.rights() & ~WRITES : a.rights();
                } else {
                    denied |= a.rights();
                }
            }
        }
        int rights = allowed & ~denied;
        if (byAttribute.size() < 256) {
            byAttribute.put(oid, rights);
        }
        return rights;
    }

    /**
     * The rights held on the entry as a whole (add, delete, proxy, and whether it may be seen at all):
     * granted by any allow that applies, withheld only by a deny that covers every attribute.
     */
    int onEntry() {
        if (entryAllowed < 0) {
            int allowed = 0;
            int denied = 0;
            for (Applied a : applied) {
                if (a.allow()) {
                    allowed |= a.rights();
                } else if (a.attributes().coversEverything()) {
                    denied |= a.rights();
                }
            }
            entryAllowed = allowed & ~denied;
        }
        return entryAllowed;
    }
}
