package dev.larch.server.access;

import java.util.List;

import dev.larch.server.search.Filter;

/**
 * One compiled ACI: where it applies ({@link Target}) and its allow/deny {@link Rule}s. Immutable and
 * thread-safe; built once by {@link AciParser} and shared by every request.
 *
 * @param name the {@code acl "name"}, for messages
 * @param text the value as stored, for messages
 */
record Aci(String name, Target target, List<Rule> rules, String text) {
    Aci {
        rules = List.copyOf(rules);
    }

    /** How far what this ACI grants one requester can differ between entries under the same parent. */
    EntryDependence dependence(boolean anonymous) {
        if (target.dn() != null || target.filter() != null) {
            return EntryDependence.ANY;
        }
        EntryDependence widest = EntryDependence.NONE;
        for (Rule rule : rules) {
            widest = widest.or(rule.subject().dependence(anonymous));
        }
        return widest;
    }

    /**
     * @param dn {@code target}: an exact DN (the base of the scope) or a pattern; null when absent
     * @param attributes {@code targetattr}
     * @param filter {@code targetfilter}; null when absent
     * @param scope {@code targetscope}, relative to the exact target DN, else to the ACI's holder
     */
    record Target(DnPattern dn, AttributeScope attributes, Filter filter, TargetScope scope) {}

    /** {@code allow|deny (rights) subject}. */
    record Rule(boolean allow, int rights, Subject subject) {}
}
