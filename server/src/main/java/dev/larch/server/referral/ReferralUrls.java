package dev.larch.server.referral;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.apache.directory.api.ldap.model.exception.LdapInvalidDnException;
import org.apache.directory.api.ldap.model.exception.LdapURLEncodingException;
import org.apache.directory.api.ldap.model.message.SearchScope;
import org.apache.directory.api.ldap.model.name.Dn;
import org.apache.directory.api.ldap.model.url.LdapUrl;

/**
 * The URLs a referral object's {@code ref} values become in answers (RFC 3296 section 5, RFC 4511
 * sections 4.1.10 and 4.5.3). A value that is not an LDAP URL (another URI scheme, or text that does
 * not parse) is passed on unchanged: the {@code ref} syntax (IA5String) accepts it, and the client
 * is the one that must make sense of it.
 *
 * <p>Stateless and thread-safe.
 */
public final class ReferralUrls {
    private ReferralUrls() {}

    /**
     * The referral for an operation on {@code target}, which is the referral object {@code referralDn}
     * or lies below it: each LDAP URL's DN gets the RDNs of {@code target} below the referral object
     * put in front (RFC 3296 section 5), so it names the same entry in the referenced tree; a URL
     * without a DN stays without one (the client then uses its own target, RFC 4511 section 4.1.10).
     */
    public static List<String> forTarget(List<String> refs, Dn referralDn, Dn target) {
        List<String> out = new ArrayList<>(refs.size());
        for (String ref : refs) {
            LdapUrl url = parse(ref);
            if (url == null || url.getDn() == null || url.getDn().isEmpty() || target.equals(referralDn)) {
                out.add(ref);
                continue;
            }
            Dn moved = below(target, referralDn, url.getDn());
            if (moved == null) {
                out.add(ref);
                continue;
            }
            url.setDn(moved);
            out.add(url.toString());
        }
        return out;
    }

    /**
     * The continuation reference for a referral object met in a search's scope (RFC 4511 section
     * 4.5.3): each LDAP URL names a DN (the referral object's when the value has none) and the scope
     * that continues the search there: {@code base} for a one-level search, {@code sub} for a subtree
     * (or subordinates) search.
     */
    public static List<String> forContinuation(List<String> refs, Dn referralDn, SearchScope scope) {
        List<String> out = new ArrayList<>(refs.size());
        for (String ref : refs) {
            LdapUrl url = parse(ref);
            if (url == null) {
                out.add(ref);
                continue;
            }
            if (url.getDn() == null || url.getDn().isEmpty()) {
                url.setDn(referralDn);
            }
            url.setScope(scope == SearchScope.ONELEVEL ? SearchScope.OBJECT : SearchScope.SUBTREE);
            url.setForceScopeRendering(true); // "base" is the default, but RFC 4511 asks for it spelled out
            out.add(url.toString());
        }
        return out;
    }

    /** The LDAP URL {@code ref}, or null when it is none. */
    private static LdapUrl parse(String ref) {
        String scheme = ref.length() >= 8 ? ref.substring(0, 8).toLowerCase(Locale.ROOT) : "";
        if (!scheme.startsWith("ldap://") && !scheme.startsWith("ldaps://")) {
            return null;
        }
        try {
            return new LdapUrl(ref);
        } catch (LdapURLEncodingException | RuntimeException e) {
            return null;
        }
    }

    /** {@code target}'s RDNs below {@code ancestor}, in front of {@code newParent}; null if not below. */
    private static Dn below(Dn target, Dn ancestor, Dn newParent) {
        if (!target.isDescendantOf(ancestor)) {
            return null;
        }
        try {
            Dn moved = newParent;
            for (int i = target.size() - ancestor.size() - 1; i >= 0; i--) {
                moved = moved.add(target.getRdn(i));
            }
            return moved;
        } catch (LdapInvalidDnException e) {
            return null;
        }
    }
}
