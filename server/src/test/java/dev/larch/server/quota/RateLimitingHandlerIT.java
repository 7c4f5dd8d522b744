package dev.larch.server.quota;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchScope;
import dev.larch.config.LarchConfig;
import dev.larch.config.RateQuotas;
import dev.larch.server.accesslog.AccessLoggingHandler;
import dev.larch.server.auth.PasswordSchemes;
import dev.larch.server.testing.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Rate quotas through a real server and client. Each test starts its own server, since every client
 * here shares one address (127.0.0.1) and so one per-address bucket. No assertion depends on how fast
 * the machine is: a burst sent as fast as the client can is many times the quota, and recovery is
 * checked after waiting longer than the refill.
 */
class RateLimitingHandlerIT {
    private static final String PEOPLE = "ou=people," + TestServer.SUFFIX;
    private static final String ALICE = "uid=alice," + PEOPLE;
    private static final String BOB = "uid=bob," + PEOPLE;
    private static final int BURST = 200;
    private static final ListAppender<ILoggingEvent> ACCESS = new ListAppender<>();

    @TempDir
    Path dir;

    @BeforeAll
    static void captureAccessLog() {
        ACCESS.start();
        ((Logger) LoggerFactory.getLogger(AccessLoggingHandler.LOGGER_NAME)).addAppender(ACCESS);
    }

    @AfterAll
    static void releaseAccessLog() {
        ((Logger) LoggerFactory.getLogger(AccessLoggingHandler.LOGGER_NAME)).detachAppender(ACCESS);
    }

    @BeforeEach
    void forgetEarlierLines() {
        synchronized (ACCESS) {
            ACCESS.list.clear();
        }
    }

    /**
     * A fresh server (its own data directory) with the access log on and {@code quotas}, holding the
     * base tree, alice and bob, added by the administrator (so exempt from the quotas).
     */
    private TestServer start(RateQuotas quotas) throws IOException {
        TestServer server = startEmpty(quotas);
        server.add(TestServer.BASE_LDIF + "\n" + person("alice") + person("bob"));
        return server;
    }

    /** A fresh server with nothing stored: the root DSE is all these tests read. */
    private TestServer startEmpty(RateQuotas quotas) throws IOException {
        UnaryOperator<LarchConfig.Builder> customize = c -> TestServer.withAccessLog(c)
                .set("limits.rate-per-identity", quotas.perIdentity())
                .set("limits.rate-per-address", quotas.perAddress())
                .set("limits.rate-burst-seconds", quotas.burstSeconds())
                .set("limits.rate-apply-to-admin", quotas.applyToAdmin());
        return TestServer.start(Files.createTempDirectory(dir, "data"), customize);
    }

    private static String person(String uid) {
        String hash = new String(PasswordSchemes.hash("SSHA", ("pw-" + uid).getBytes(UTF_8)), UTF_8);
        return "dn: uid=" + uid + "," + PEOPLE + "\nobjectClass: inetOrgPerson\nuid: " + uid + "\ncn: " + uid + "\nsn: "
                + uid + "\nuserPassword: " + hash + "\n\n";
    }

    /** One base search of the root DSE: its result code, or the refusal's. */
    private static LDAPException readRootDse(LDAPConnection c) {
        try {
            c.search("", SearchScope.BASE, "(objectClass=*)");
            return null;
        } catch (LDAPException e) {
            return e;
        }
    }

    /** Sends {@code count} searches back to back; returns the refusals, all of which must be busy. */
    private static List<LDAPException> burst(LDAPConnection c, int count) {
        List<LDAPException> refusals = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            LDAPException refused = readRootDse(c);
            if (refused != null) {
                assertEquals(ResultCode.BUSY, refused.getResultCode(), refused.getMessage());
                refusals.add(refused);
            }
        }
        return refusals;
    }

    private static List<String> accessLines() {
        synchronized (ACCESS) {
            return ACCESS.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
        }
    }

    @Test
    void anAddressOverItsQuotaGetsBusyInTheAccessLogAndRecoversAfterTheRefill() throws Exception {
        try (TestServer server = start(RateLimitingHandlerTest.quotas(0, 5, false));
                LDAPConnection c = server.anonymous()) {
            List<LDAPException> refusals = burst(c, BURST);
            assertTrue(refusals.size() > 0, "a burst of " + BURST + " must exceed 5 a second");
            assertTrue(refusals.size() < BURST, "the bucket starts with 5 tokens");
            assertEquals(
                    "rate limit of 5 operations per second per client address exceeded (limits.rate-per-address);"
                            + " try again later",
                    refusals.get(0).getDiagnosticMessage());

            String line = await().until(
                            () -> accessLines().stream()
                                    .filter(l -> l.contains(" SEARCH base=\"\"")
                                            && l.contains(" result=51 ")
                                            && l.contains("per client address"))
                                    .findFirst(),
                            Optional::isPresent)
                    .orElseThrow();
            assertTrue(
                    line.contains(" text=\"rate limit of 5 operations per second per client address exceeded"
                            + " (limits.rate-per-address); try again later\""),
                    line);

            // Longer than one token's refill (0.2 s): at least one search is let through again.
            Thread.sleep(1_100);
            assertNull(readRootDse(c));
        }
    }

    @Test
    void theAdministratorIsExemptUnlessConfigured() throws Exception {
        try (TestServer server = startEmpty(RateLimitingHandlerTest.quotas(5, 5, false));
                LDAPConnection admin = server.admin()) {
            assertEquals(List.of(), burst(admin, BURST));
        }
        try (TestServer server = startEmpty(RateLimitingHandlerTest.quotas(5, 5, true));
                LDAPConnection admin = server.admin()) {
            assertNotEquals(List.of(), burst(admin, BURST));
        }
    }

    @Test
    void eachIdentityHasItsOwnQuota() throws Exception {
        try (TestServer server = start(RateLimitingHandlerTest.quotas(5, 0, false));
                LDAPConnection alice = server.boundAs(ALICE, "pw-alice");
                LDAPConnection bob = server.boundAs(BOB, "pw-bob")) {
            List<LDAPException> refusals = burst(alice, BURST);
            assertTrue(refusals.size() > 0, "a burst of " + BURST + " must exceed 5 a second");
            assertTrue(refusals.get(0).getDiagnosticMessage().contains("per identity"));
            assertTrue(refusals.get(0).getDiagnosticMessage().contains("(limits.rate-per-identity)"));
            // Bob shares the address but not the bucket: his five tokens are all there.
            for (int i = 0; i < 5; i++) {
                assertNull(readRootDse(bob), "bob's search " + i);
            }
            // Anonymous sessions have no identity and no per-address quota is set here.
            try (LDAPConnection anonymous = server.anonymous()) {
                assertEquals(List.of(), burst(anonymous, BURST));
            }
        }
    }
}
