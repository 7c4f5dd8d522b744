package dev.larch.schema;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.directory.api.ldap.model.schema.AttributeType;
import org.apache.directory.api.ldap.model.schema.MatchingRule;
import org.apache.directory.api.ldap.model.schema.MatchingRuleUse;
import org.apache.directory.api.ldap.model.schema.SchemaManager;

/**
 * Derives the matchingRuleUse values (RFC 4512 section 4.1.4) the bundled schemas do not define.
 *
 * <p>An attribute type is listed for a matching rule when the rule is its equality, ordering or
 * substrings rule, or when the rule's assertion syntax is the attribute's syntax, which is the
 * condition under which an extensible match of that rule on that attribute is well defined
 * (OpenLDAP derives its list the same way). Rules that apply to no attribute are left out, since the
 * description syntax requires at least one.
 */
final class MatchingRuleUses {
    private MatchingRuleUses() {}

    static List<MatchingRuleUse> of(SchemaManager manager) {
        if (manager.getMatchingRuleUseRegistry().size() > 0) {
            List<MatchingRuleUse> defined = new ArrayList<>();
            manager.getMatchingRuleUseRegistry().forEach(defined::add);
            return defined;
        }
        Map<String, List<String>> applies = new LinkedHashMap<>();
        for (MatchingRule rule : manager.getMatchingRuleRegistry()) {
            for (AttributeType type : manager.getAttributeTypeRegistry()) {
                if (appliesTo(rule, type)) {
                    applies.computeIfAbsent(rule.getOid(), oid -> new ArrayList<>())
                            .add(nameOrOid(type));
                }
            }
        }
        List<MatchingRuleUse> uses = new ArrayList<>();
        for (MatchingRule rule : manager.getMatchingRuleRegistry()) {
            List<String> types = applies.get(rule.getOid());
            if (types != null) {
                MatchingRuleUse use = new MatchingRuleUse(rule.getOid());
                use.setNames(rule.getNames());
                use.setSchemaName(rule.getSchemaName());
                use.setApplicableAttributeOids(types);
                uses.add(use);
            }
        }
        return uses;
    }

    private static boolean appliesTo(MatchingRule rule, AttributeType type) {
        String oid = rule.getOid();
        return isRule(type.getEquality(), oid)
                || isRule(type.getOrdering(), oid)
                || isRule(type.getSubstring(), oid)
                || (type.getSyntax() != null && type.getSyntax().getOid().equals(rule.getSyntaxOid()));
    }

    private static boolean isRule(MatchingRule candidate, String oid) {
        return candidate != null && candidate.getOid().equals(oid);
    }

    private static String nameOrOid(AttributeType type) {
        String name = type.getName();
        return name == null || name.isEmpty() ? type.getOid() : name;
    }
}
