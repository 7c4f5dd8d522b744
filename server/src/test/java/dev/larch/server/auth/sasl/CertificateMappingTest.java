package dev.larch.server.auth.sasl;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The value EXTERNAL looks up by attribute when no entry has the subject DN itself. */
class CertificateMappingTest {

    @Test
    void uidWinsOverCn() {
        assertEquals("alice", CertificateMapping.subjectValue("CN=Alice Example,UID=alice,O=Example"));
    }

    @Test
    void uidByOid() {
        assertEquals("alice", CertificateMapping.subjectValue("0.9.2342.19200300.100.1.1=alice,O=Example"));
    }

    @Test
    void cnWhenThereIsNoUid() {
        assertEquals("Alice Example", CertificateMapping.subjectValue("CN=Alice Example,OU=People,O=Example"));
    }

    @Test
    void theMostSpecificCnCounts() {
        assertEquals("alice", CertificateMapping.subjectValue("CN=alice,CN=Users,O=Example"));
    }

    @Test
    void neitherUidNorCnMapsNobody() {
        assertNull(CertificateMapping.subjectValue("O=Example,C=DE"));
    }

    @Test
    void aMalformedSubjectMapsNobody() {
        assertNull(CertificateMapping.subjectValue("not a DN"));
    }
}
