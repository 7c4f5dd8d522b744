package dev.larch.server.auth.sasl;

import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

import dev.larch.server.tls.Certificates;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The subject-dn rule's pattern is evaluated within a budget, whatever pattern an administrator wrote. */
class SubjectDnRuleTest {
    private static final Certificates.Issued CA = Certificates.authority("CN=CA,O=Example", Duration.ofDays(1));

    @Test
    void aBacktrackingPatternStopsAtItsBudgetInsteadOfRunningForAges() {
        // The JDK memoizes simple loops such as (a+)+, but not this one: about n^12 steps on a miss.
        String text = "a".repeat(40) + "!";
        assertThrows(
                BoundedText.BudgetExceeded.class,
                () -> Pattern.compile("(.*a){12}")
                        .matcher(new BoundedText(text, 1_000_000))
                        .matches());
    }

    @Test
    void aSubjectThatDefeatsThePatternMapsNobodyQuickly() {
        // Certificates.client writes RDNs in the given order, which RFC 4514 prints reversed.
        Certificates.Issued client =
                Certificates.client("O=Example,CN=" + "a".repeat(40) + "!", CA, Duration.ofDays(1));
        SubjectDnRule rule = new SubjectDnRule(null, null, "CN=(.*a){12},O=Example", "$0", null);
        CertificateRule.Result result =
                assertTimeoutPreemptively(Duration.ofSeconds(10), () -> rule.map(client.certificate()));
        assertTrue(result.applies());
        assertNull(result.dn());
        assertTrue(result.failure().contains("steps"), result.failure());
    }

    @Test
    void aPatternMustMatchTheWholeSubject() {
        Certificates.Issued client = Certificates.client("O=Example,OU=Staff,CN=alice", CA, Duration.ofDays(1));
        SubjectDnRule rule = new SubjectDnRule(null, null, "CN=alice", "$0", null);
        assertFalse(rule.map(client.certificate()).applies());
    }

    @Test
    void subjectsPrintEmailAddressesAsText() {
        Certificates.Issued client =
                Certificates.client("O=Example,EMAILADDRESS=alice@example.com", CA, Duration.ofDays(1));
        assertEquals("EMAILADDRESS=alice@example.com,O=Example", SubjectNames.subject(client.certificate()));
        assertEquals(
                List.of("alice@example.com"),
                SubjectNames.values(SubjectNames.subject(client.certificate()), "emailAddress"));
    }
}
