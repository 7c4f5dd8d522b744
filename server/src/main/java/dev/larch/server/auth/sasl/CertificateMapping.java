package dev.larch.server.auth.sasl;

import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Locale;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;

import org.apache.directory.api.ldap.model.name.Dn;

/**
 * Maps a verified client certificate to an entry, for SASL EXTERNAL. The rule, in order:
 *
 * <ol>
 *   <li>the entry whose DN equals the certificate's subject DN (compared as DNs: case and spacing of
 *       attribute types and values do not matter, as the schema says);
 *   <li>else, unless {@code tls.certificate-mapping = none}, the one entry under the suffix whose
 *       mapping attribute (default {@code uid}) equals the subject's UID value, or its CN value when it
 *       has no UID, looked up through that attribute's equality index (see {@link EntryFinder}).
 * </ol>
 *
 * No match, or several, maps nobody. Thread-safe.
 */
final class CertificateMapping {
    private static final String UID_OID = "0.9.2342.19200300.100.1.1";

    private final EntryFinder finder;
    /** The attribute looked up; null when only the subject DN maps. */
    private final String attribute;

    CertificateMapping(EntryFinder finder, String attribute) {
        this.finder = finder;
        this.attribute = attribute;
    }

    /** The entry the certificate names, or null. */
    Dn map(X509Certificate certificate) {
        String subject = certificate.getSubjectX500Principal().getName();
        Dn byDn = finder.byDn(subject);
        if (byDn != null || attribute == null) {
            return byDn;
        }
        String value = subjectValue(subject);
        return value == null ? null : finder.byAttribute(attribute, value);
    }

    /** The subject's UID value, else its CN value (the most specific one); null when it has neither. */
    static String subjectValue(String subjectRfc2253) {
        List<Rdn> rdns;
        try {
            rdns = new LdapName(subjectRfc2253).getRdns();
        } catch (InvalidNameException e) {
            return null;
        }
        String uid = null;
        String cn = null;
        // LdapName lists RDNs from the root down: the last match is the most specific.
        for (Rdn rdn : rdns) {
            String type = rdn.getType().toLowerCase(Locale.ROOT);
            if ((type.equals("uid") || type.equals(UID_OID)) && rdn.getValue() instanceof String value) {
                uid = value;
            } else if ((type.equals("cn") || type.equals("2.5.4.3")) && rdn.getValue() instanceof String value) {
                cn = value;
            }
        }
        return uid != null ? uid : cn;
    }
}
