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
 * <p>Not thread-safe; per-attribute answers are remembered (at most {@value #MAX_REMEMBERED}), so
 * entries sharing one (under the same parent, with rules that do not look at the entry itself) cost
 * one lookup per attribute. The first {@value #FIRST_ANSWERS} are kept in two small arrays searched
 * in order, made on the first answer, the rest in a map: an entry is mostly asked about a few
 * attributes (a search's filter and the ones it returns), and a hash map with its entries and boxed
 * answers for those cost about 300 bytes per entry a search decided.
 */
final class EntryRights {
    /** A rule that applies, with the attributes its ACI covers. */
    record Applied(boolean allow, int rights, AttributeScope attributes) {}

    /** The rights that change an attribute's values. */
    private static final int WRITES = Rights.WRITE | Rights.SELFWRITE;

    /** The most per-attribute answers remembered; the ones after are worked out each time. */
    static final int MAX_REMEMBERED = 256;

    /** The answers kept in {@link #oids} and {@link #answers}; the rest go to {@link #more}. */
    static final int FIRST_ANSWERS = 8;

    private final List<Applied> applied;
    private final AciSchema schema;
    /** The OIDs of the first answers, then nulls; null until the first answer. */
    private String[] oids;
    /** The answer for each of {@link #oids}. */
    private int[] answers;

    private int firstAnswers;
    /** The answers after the first {@value #FIRST_ANSWERS}; null until there is one. */
    private Map<String, Integer> more;

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
        for (int i = 0; i < firstAnswers; i++) {
            if (oids[i].equals(oid)) {
                return answers[i];
            }
        }
        Integer known = more == null ? null : more.get(oid);
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
        remember(oid, rights);
        return rights;
    }

    private void remember(String oid, int rights) {
        if (firstAnswers < FIRST_ANSWERS) {
            if (oids == null) {
                oids = new String[FIRST_ANSWERS];
                answers = new int[FIRST_ANSWERS];
            }
            oids[firstAnswers] = oid;
            answers[firstAnswers] = rights;
            firstAnswers++;
            return;
        }
        if (more == null) {
            more = new HashMap<>();
        }
        if (remembered() < MAX_REMEMBERED) {
            more.put(oid, rights);
        }
    }

    /** How many per-attribute answers are remembered (for tests). */
    int remembered() {
        return firstAnswers + (more == null ? 0 : more.size());
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
