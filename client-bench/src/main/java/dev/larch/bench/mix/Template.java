package dev.larch.bench.mix;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * A string with {@code ${variable}} placeholders, parsed once when the mix is loaded.
 *
 * <p>Immutable and thread-safe.
 */
public final class Template {
    private final String source;
    private final List<Object> parts; // String literals and Variables, in order
    private final Set<Variable> variables;

    private Template(String source, List<Object> parts, Set<Variable> variables) {
        this.source = source;
        this.parts = parts;
        this.variables = variables;
    }

    /**
     * Parses {@code source}.
     *
     * @throws IllegalArgumentException naming the placeholder if it is unknown or unterminated
     */
    public static Template parse(String source) {
        List<Object> parts = new ArrayList<>();
        Set<Variable> vars = EnumSet.noneOf(Variable.class);
        int i = 0;
        while (i < source.length()) {
            int open = source.indexOf("${", i);
            if (open < 0) {
                parts.add(source.substring(i));
                break;
            }
            if (open > i) {
                parts.add(source.substring(i, open));
            }
            int close = source.indexOf('}', open);
            if (close < 0) {
                throw new IllegalArgumentException("unterminated placeholder in '" + source + "'");
            }
            String name = source.substring(open + 2, close);
            Variable v = Variable.byPlaceholder(name)
                    .orElseThrow(() ->
                            new IllegalArgumentException("unknown placeholder ${" + name + "} in '" + source + "'"));
            parts.add(v);
            vars.add(v);
            i = close + 1;
        }
        return new Template(source, List.copyOf(parts), vars);
    }

    public Set<Variable> variables() {
        return variables;
    }

    /** Substitutes each placeholder with {@code values.apply(variable)}, passed through {@code escape}. */
    public String render(Function<Variable, String> values, Function<String, String> escape) {
        StringBuilder sb = new StringBuilder(source.length() + 32);
        for (Object part : parts) {
            if (part instanceof Variable v) {
                sb.append(escape.apply(values.apply(v)));
            } else {
                sb.append((String) part);
            }
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return source;
    }
}
