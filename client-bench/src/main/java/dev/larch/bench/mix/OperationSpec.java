package dev.larch.bench.mix;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import com.unboundid.ldap.sdk.SearchScope;

/**
 * One kind of request in a mix: a search with templated base and filter(s).
 *
 * @param name label used in reports
 * @param share percent of requests (0 disables it)
 * @param base base DN template
 * @param scope search scope
 * @param filters filter templates; one is chosen uniformly per request
 * @param attributes attributes to return (empty: all user attributes)
 * @param expect shape of a correct answer
 * @param requireAttribute if not null, a correct answer's entries must hold a value of this attribute
 * @param sizeLimit size limit sent with the request (0: none requested, the server's own applies)
 */
public record OperationSpec(
        String name,
        double share,
        Template base,
        SearchScope scope,
        List<Template> filters,
        List<String> attributes,
        Expectation expect,
        String requireAttribute,
        int sizeLimit) {

    /** All placeholders this operation uses. */
    public Set<Variable> variables() {
        Set<Variable> vars = EnumSet.noneOf(Variable.class);
        vars.addAll(base.variables());
        filters.forEach(f -> vars.addAll(f.variables()));
        return vars;
    }
}
