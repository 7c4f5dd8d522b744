package dev.larch.server.auth.sasl;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The value EXTERNAL looks up by attribute when no entry has the subject DN itself. */
class BuiltInRuleTest {

    @Test
    void uidWinsOverCn() {
        assertEquals("alice", BuiltInRule.subjectValue("CN=Alice Example,UID=alice,O=Example"));
    }

    @Test
    void uidByOid() {
        assertEquals("alice", BuiltInRule.subjectValue("0.9.2342.19200300.100.1.1=alice,O=Example"));
    }

    @Test
    void cnWhenThereIsNoUid() {
        assertEquals("Alice Example", BuiltInRule.subjectValue("CN=Alice Example,OU=People,O=Example"));
    }

    @Test
    void theMostSpecificCnCounts() {
        assertEquals("alice", BuiltInRule.subjectValue("CN=alice,CN=Users,O=Example"));
    }

    @Test
    void neitherUidNorCnMapsNobody() {
        assertNull(BuiltInRule.subjectValue("O=Example,C=DE"));
    }

    @Test
    void aMalformedSubjectMapsNobody() {
        assertNull(BuiltInRule.subjectValue("not a DN"));
    }
}
