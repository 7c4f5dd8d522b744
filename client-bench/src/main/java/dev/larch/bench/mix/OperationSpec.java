package dev.larch.bench.mix;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import com.unboundid.ldap.sdk.SearchScope;

/**
 * One kind of request in a mix (see client-bench/README.md, "Mix files", for each type's fields).
 *
 * @param name label used in reports
 * @param share percent of requests (0 disables it)
 * @param base base DN template: the search base, the entry modified or compared, or the DN bound as
 * @param scope search scope
 * @param filters filter templates; one is chosen uniformly per request (searches)
 * @param attributes attributes to return (empty: all user attributes)
 * @param expect shape of a correct search answer (entry count)
 * @param requireAttributes attributes every returned entry must hold a value of (besides the kept
 *     person attributes that are demanded automatically)
 * @param sizeLimit size limit sent with the request (0: none requested, the server's own applies)
 * @param type what is sent
 * @param attribute the attribute modified or compared, or null
 * @param value template of the new (modify) or asserted (compare) value, or null
 * @param password template of the bind password (bind, authenticate, churn), or null
 * @param expectedResultCode the LDAP result code of a correct answer: 0 for writes and searches, 6
 *     compareTrue or 5 compareFalse, 0 or 49 invalidCredentials for a bind
 */
public record OperationSpec(
        String name,
        double share,
        Template base,
        SearchScope scope,
        List<Template> filters,
        List<String> attributes,
        Expectation expect,
        List<String> requireAttributes,
        int sizeLimit,
        OpType type,
        String attribute,
        Template value,
        Template password,
        int expectedResultCode) {

    /** A search operation (the fields every type before writes had). */
    public static OperationSpec search(
            String name,
            double share,
            Template base,
            SearchScope scope,
            List<Template> filters,
            List<String> attributes,
            Expectation expect,
            List<String> requireAttributes,
            int sizeLimit) {
        return new OperationSpec(
                name,
                share,
                base,
                scope,
                filters,
                attributes,
                expect,
                requireAttributes,
                sizeLimit,
                OpType.SEARCH,
                null,
                null,
                null,
                0);
    }

    /** All placeholders this operation uses, and those it needs implicitly (adds need a people container). */
    public Set<Variable> variables() {
        Set<Variable> vars = EnumSet.noneOf(Variable.class);
        vars.addAll(base.variables());
        filters.forEach(f -> vars.addAll(f.variables()));
        if (value != null) {
            vars.addAll(value.variables());
        }
        if (password != null) {
            vars.addAll(password.variables());
        }
        if (type == OpType.ADD || type == OpType.DELETE || type == OpType.MODRDN) {
            vars.add(Variable.PERSON_DN);
        }
        return vars;
    }
}
