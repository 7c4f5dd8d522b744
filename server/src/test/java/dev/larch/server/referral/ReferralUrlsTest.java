package dev.larch.server.referral;

import java.util.List;

import org.apache.directory.api.ldap.model.message.SearchScope;
import org.apache.directory.api.ldap.model.name.Dn;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ReferralUrlsTest {
    static final Dn REFERRAL = dn("ou=remote,dc=example,dc=com");

    static Dn dn(String name) {
        try {
            return new Dn(name);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    @Test
    void aTargetBelowTheReferralObjectKeepsItsRdnsInFrontOfTheUrlDn() {
        assertEquals(
                List.of("ldap://b.example/cn=x,uid=y,ou=there,dc=b"),
                ReferralUrls.forTarget(
                        List.of("ldap://b.example/ou=there,dc=b"),
                        REFERRAL,
                        dn("cn=x,uid=y,ou=remote,dc=example,dc=com")));
    }

    @Test
    void theReferralObjectItselfAndUrlsWithoutDnOrNotLdapPassUnchanged() {
        List<String> refs =
                List.of("ldap://b.example/ou=there,dc=b", "ldap://c.example/", "http://example.org/x", "ldap://[bad");
        assertEquals(refs, ReferralUrls.forTarget(refs, REFERRAL, REFERRAL));
        assertEquals(
                List.of("ldap://c.example/", "http://example.org/x", "ldap://[bad"),
                ReferralUrls.forTarget(refs.subList(1, 4), REFERRAL, dn("cn=x,ou=remote,dc=example,dc=com")));
    }

    @Test
    void aContinuationReferenceNamesADnAndTheScopeThatContinuesTheSearch() {
        assertEquals(
                List.of("ldap://b.example/ou=there,dc=b??sub", "ldap://c.example/ou=remote,dc=example,dc=com??sub"),
                ReferralUrls.forContinuation(
                        List.of("ldap://b.example/ou=there,dc=b", "ldap://c.example"), REFERRAL, SearchScope.SUBTREE));
        assertEquals(
                List.of("ldap://b.example/ou=there,dc=b??base", "urn:x"),
                ReferralUrls.forContinuation(
                        List.of("ldap://b.example/ou=there,dc=b", "urn:x"), REFERRAL, SearchScope.ONELEVEL));
    }
}
