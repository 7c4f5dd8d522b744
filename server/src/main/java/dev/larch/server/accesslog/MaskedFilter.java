package dev.larch.server.accesslog;

import dev.larch.server.auth.PasswordAttributes;
import org.apache.directory.api.ldap.model.entry.Value;
import org.apache.directory.api.ldap.model.filter.AndNode;
import org.apache.directory.api.ldap.model.filter.ApproximateNode;
import org.apache.directory.api.ldap.model.filter.BranchNode;
import org.apache.directory.api.ldap.model.filter.EqualityNode;
import org.apache.directory.api.ldap.model.filter.ExprNode;
import org.apache.directory.api.ldap.model.filter.ExtensibleNode;
import org.apache.directory.api.ldap.model.filter.GreaterEqNode;
import org.apache.directory.api.ldap.model.filter.LessEqNode;
import org.apache.directory.api.ldap.model.filter.NotNode;
import org.apache.directory.api.ldap.model.filter.OrNode;
import org.apache.directory.api.ldap.model.filter.SubstringNode;

/**
 * A search filter as RFC 4515 text with the assertion values on password attributes replaced by
 * {@code ***}, for example {@code (&(uid=jdoe)(userPassword=***))}: the access log (and a trace) must not hold
 * what a client guessed or knew. Other parts render as the LDAP API writes them. Stateless.
 */
public final class MaskedFilter {
    static final String MASK = "***";
    /** The annotation the LDAP API adds to a node's text when set. */
    private static final String COUNT = "count";

    private MaskedFilter() {}

    /** The filter's text; recursion follows the filter, whose depth the decoder already bounds. */
    public static String render(ExprNode node, PasswordAttributes passwords) {
        StringBuilder out = new StringBuilder();
        render(node, passwords, out);
        return out.toString();
    }

    /** Appends the filter's text to {@code out}. */
    public static void render(ExprNode node, PasswordAttributes passwords, StringBuilder out) {
        switch (node) {
            case AndNode and -> branch('&', and, passwords, out);
            case OrNode or -> branch('|', or, passwords, out);
            case NotNode not -> branch('!', not, passwords, out);
            case EqualityNode<?> n -> leaf(n.getAttribute(), "=", node, passwords, out);
            case GreaterEqNode<?> n -> leaf(n.getAttribute(), ">=", node, passwords, out);
            case LessEqNode<?> n -> leaf(n.getAttribute(), "<=", node, passwords, out);
            case ApproximateNode<?> n -> leaf(n.getAttribute(), "~=", node, passwords, out);
            case SubstringNode n -> leaf(n.getAttribute(), "=", node, passwords, out);
            case ExtensibleNode n -> {
                if (passwords.isProtectedDescription(n.getAttribute())) {
                    out.append('(').append(n.getAttribute());
                    if (n.hasDnAttributes()) {
                        out.append(":dn");
                    }
                    if (n.getMatchingRuleId() != null) {
                        out.append(':').append(n.getMatchingRuleId());
                    }
                    out.append(":=").append(MASK).append(')');
                } else {
                    out.append(node);
                }
            }
            default -> out.append(node);
        }
    }

    private static void branch(char operator, BranchNode node, PasswordAttributes passwords, StringBuilder out) {
        out.append('(').append(operator);
        for (ExprNode child : node.getChildren()) {
            render(child, passwords, out);
        }
        out.append(')');
    }

    private static void leaf(
            String attribute, String operator, ExprNode node, PasswordAttributes passwords, StringBuilder out) {
        if (passwords.isProtectedDescription(attribute)) {
            out.append('(').append(attribute).append(operator).append(MASK).append(')');
        } else if (!(node instanceof EqualityNode<?> equality && plainEquality(equality, out))) {
            out.append(node);
        }
    }

    /**
     * Writes an equality assertion whose value is printable ASCII with nothing to escape as the LDAP
     * API's {@code toString} would ({@code (name=value)}), without its copies and decoding: the
     * access log writes one for nearly every search. False, writing nothing, for any other.
     */
    private static boolean plainEquality(EqualityNode<?> node, StringBuilder out) {
        Value value = node.getValue();
        if (value == null || node.get(COUNT) != null) {
            return false;
        }
        byte[] bytes = value.getBytes();
        if (bytes == null) {
            return false;
        }
        for (byte b : bytes) {
            // The API writes 0x20-0x7F as they are, but for ( ) * and \; anything else differently.
            if (b < 0x20 || b == '(' || b == ')' || b == '*' || b == '\\') {
                return false;
            }
        }
        out.append('(')
                .append(
                        node.getAttributeType() != null
                                ? node.getAttributeType().getName()
                                : node.getAttribute())
                .append('=');
        for (byte b : bytes) {
            out.append((char) b);
        }
        out.append(')');
        return true;
    }
}
