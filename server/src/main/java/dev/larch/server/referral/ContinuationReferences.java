package dev.larch.server.referral;

import java.util.ArrayList;
import java.util.List;

import dev.larch.server.directory.SchemaNormalizer;
import dev.larch.server.entry.StoredAttribute;
import dev.larch.server.entry.StoredEntry;
import org.apache.directory.api.ldap.model.constants.SchemaConstants;
import org.apache.directory.api.ldap.model.message.Referral;
import org.apache.directory.api.ldap.model.message.ReferralImpl;
import org.apache.directory.api.ldap.model.message.SearchRequest;
import org.apache.directory.api.ldap.model.message.SearchResultReference;
import org.apache.directory.api.ldap.model.message.SearchResultReferenceImpl;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * Builds the SearchResultReference (RFC 4511 section 4.5.3) a search sends for a referral object it
 * meets in its scope without the ManageDsaIT control; see {@link ReferralUrls#forContinuation}.
 *
 * <p>How other features treat references: they are not entries, so they count neither toward the
 * size limit nor toward a page's size (a page that is full ends before the next reference, which the
 * next page sends); a sorted search (and a virtual list view) sends them before the sorted entries,
 * on its first page only.
 *
 * <p>Thread-safe.
 */
public final class ContinuationReferences {
    private final SchemaNormalizer schema;
    private final String refOid;

    public ContinuationReferences(SchemaNormalizer schema) {
        this.schema = schema;
        this.refOid = schema.type(SchemaConstants.REF_AT).getOid();
    }

    /** The {@code ref} attribute's OID: only a client that may read it on a referral object learns of it. */
    public String refOid() {
        return refOid;
    }

    /** The reference for the referral object {@code object}, met by {@code request}. */
    public SearchResultReference build(SearchRequest request, StoredEntry object) {
        Referral referral = new ReferralImpl();
        ReferralUrls.forContinuation(refValues(object, refOid), schema.dn(object.dn()), request.getScope())
                .forEach(referral::addLdapUrl);
        SearchResultReference reference = new SearchResultReferenceImpl(request.getMessageId());
        reference.setReferral(referral);
        return reference;
    }

    /** The {@code ref} values of {@code entry} (attribute {@code refOid}), as stored. */
    static List<String> refValues(StoredEntry entry, String refOid) {
        StoredAttribute ref = entry.attribute(refOid);
        List<String> out = new ArrayList<>();
        if (ref != null) {
            for (byte[] value : ref.values()) {
                out.add(new String(value, UTF_8));
            }
        }
        return out;
    }
}
