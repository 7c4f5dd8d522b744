package dev.larch.server.auth.sasl;

import java.io.IOException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.naming.InvalidNameException;
import javax.naming.NamingEnumeration;
import javax.naming.NamingException;
import javax.naming.directory.Attribute;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.security.auth.x500.X500Principal;

import dev.larch.config.CertificateMappingRule;
import org.bouncycastle.asn1.ASN1Primitive;
import org.bouncycastle.asn1.ASN1String;

/**
 * How mapping rules read a certificate's subject: as one RFC 4514 string, and as attribute values.
 * Stateless.
 */
final class SubjectNames {
    /** Subjects longer than this map nobody: no honest certificate needs more, and patterns stay cheap. */
    static final int MAX_SUBJECT_LENGTH = 2_048;

    /** Keywords printed for these types beyond the RFC 4514 ones, so that rules can see their values. */
    private static final Map<String, String> KEYWORDS =
            Map.of("1.2.840.113549.1.9.1", "EMAILADDRESS", "2.5.4.5", "SERIALNUMBER");

    private SubjectNames() {}

    /**
     * The subject DN as RFC 4514 prints it, most specific RDN first: CN, L, ST, O, OU, C, STREET, DC,
     * UID, EMAILADDRESS and SERIALNUMBER by name in upper case, other types as dotted OIDs with
     * {@code #}hex values, no spaces around separators, values escaped. For example
     * {@code UID=alice,OU=People,O=Example}.
     */
    static String subject(X509Certificate certificate) {
        return certificate.getSubjectX500Principal().getName(X500Principal.RFC2253, KEYWORDS);
    }

    /**
     * The values of attribute {@code name} (a {@link CertificateMappingRule#SUBJECT_ATTRIBUTE_OIDS} name or
     * a dotted OID) in {@code subject} ({@link #subject}'s form), most specific first; empty when it has
     * none or is malformed.
     */
    static List<String> values(String subject, String name) {
        String wanted = name.toLowerCase(Locale.ROOT);
        String oid = CertificateMappingRule.SUBJECT_ATTRIBUTE_OIDS.getOrDefault(wanted, wanted);
        List<String> values = new ArrayList<>();
        try {
            List<Rdn> rdns = new LdapName(subject).getRdns();
            // LdapName lists RDNs from the root down: walk backwards for the most specific first.
            for (int i = rdns.size() - 1; i >= 0; i--) {
                NamingEnumeration<? extends Attribute> attributes =
                        rdns.get(i).toAttributes().getAll();
                while (attributes.hasMore()) {
                    Attribute attribute = attributes.next();
                    String type = attribute.getID().toLowerCase(Locale.ROOT);
                    if (type.equals(wanted) || type.equals(oid)) {
                        String value = text(attribute.get());
                        if (value != null) {
                            values.add(value);
                        }
                    }
                }
            }
        } catch (InvalidNameException e) {
            return List.of();
        } catch (NamingException e) {
            return List.of();
        }
        return values;
    }

    /**
     * One RDN value's text: an escaped RFC 4514 value unescaped, a {@code #}hex value decoded as the DER
     * string it holds; null when it holds none.
     */
    static String unescape(String escaped) {
        try {
            return text(Rdn.unescapeValue(escaped));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static String text(Object value) {
        if (value instanceof String s) {
            return s;
        }
        if (value instanceof byte[] der) {
            try {
                return ASN1Primitive.fromByteArray(der) instanceof ASN1String s ? s.getString() : null;
            } catch (IOException e) {
                return null;
            }
        }
        return null;
    }
}
