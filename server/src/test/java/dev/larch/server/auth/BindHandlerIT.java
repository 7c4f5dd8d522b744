package dev.larch.server.auth;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.Locale;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.unboundid.ldap.sdk.BindResult;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.PLAINBindRequest;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SimpleBindRequest;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedRequest;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedResult;
import dev.larch.config.LarchConfig;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.apache.directory.api.ldap.model.exception.LdapAuthenticationException;
import org.apache.directory.ldap.client.api.LdapNetworkConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Simple and SASL binds over the wire (RFC 4513 section 5), against a real server. */
class BindHandlerIT {
    private static final String PEOPLE = "ou=people," + TestServer.SUFFIX;

    @RegisterExtension
    static final LarchServerExtension larch = LarchServerExtension.withBaseTree()
            .adding(peopleWithEachPasswordScheme())
            // An add now hashes cleartext; an import keeps it, as a store from before hashing would hold it.
            .importing(person("cleartext", "plain-pw"));

    private static String peopleWithEachPasswordScheme() {
        StringBuilder ldif = new StringBuilder();
        for (String scheme : new String[] {"SSHA", "SSHA256", "SSHA512", "PBKDF2-SHA256"}) {
            ldif.append(person(
                    scheme.toLowerCase(Locale.ROOT),
                    new String(PasswordSchemes.hash(scheme, ("pw-" + scheme).getBytes(UTF_8)), UTF_8)));
        }
        ldif.append(person("costly", costlyHash("costly-pw")));
        return ldif.toString();
    }

    /** A PBKDF2 hash with one iteration more than the default bound allows. */
    private static String costlyHash(String password) {
        return "{PBKDF2-SHA256}"
                + new Pbkdf2Scheme("PBKDF2-SHA256", "HmacSHA256")
                        .encode(
                                password.getBytes(UTF_8),
                                new SecureRandom(),
                                LarchConfig.defaults().security().maxPasswordIterations() + 1);
    }

    private static String person(String uid, String userPassword) {
        return "dn: uid=" + uid + "," + PEOPLE + "\nobjectClass: inetOrgPerson\nuid: " + uid + "\ncn: " + uid + "\nsn: "
                + uid + "\nuserPassword: " + userPassword + "\n\n";
    }

    private static String whoAmI(LDAPConnection c) throws LDAPException {
        WhoAmIExtendedResult r = (WhoAmIExtendedResult) c.processExtendedOperation(new WhoAmIExtendedRequest());
        assertEquals(ResultCode.SUCCESS, r.getResultCode());
        // RFC 4532 section 2.2: for the anonymous identity the value is absent or empty.
        return r.getAuthorizationID() == null ? "" : r.getAuthorizationID();
    }

    private static ResultCode bindFails(LDAPConnection c, String dn, String password) {
        return assertThrows(LDAPException.class, () -> c.bind(dn, password)).getResultCode();
    }

    @Test
    void anonymousBindSucceedsAndLeavesTheConnectionAnonymous() throws Exception {
        try (LDAPConnection c = larch.server().anonymous()) {
            BindResult r = c.bind(new SimpleBindRequest());
            assertEquals(ResultCode.SUCCESS, r.getResultCode());
            assertEquals("", whoAmI(c));
        }
    }

    @Test
    void adminBindsWithTheConfiguredPassword() throws Exception {
        try (LDAPConnection c = larch.server().anonymous()) {
            assertEquals(
                    ResultCode.SUCCESS,
                    c.bind(TestServer.ADMIN_DN, TestServer.ADMIN_PASSWORD).getResultCode());
            assertEquals("dn:" + TestServer.ADMIN_DN, whoAmI(c));
        }
    }

    @Test
    void adminDnIsMatchedAsADnNotAsAString() throws Exception {
        try (LDAPConnection c = larch.server().anonymous()) {
            assertEquals(
                    ResultCode.SUCCESS,
                    c.bind("CN=Admin, DC=Example,dc=COM", TestServer.ADMIN_PASSWORD)
                            .getResultCode());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"SSHA", "SSHA256", "SSHA512", "PBKDF2-SHA256"})
    void entryBindsWithItsHashedUserPassword(String scheme) throws Exception {
        String dn = "uid=" + scheme.toLowerCase(Locale.ROOT) + "," + PEOPLE;
        try (LDAPConnection c = larch.server().anonymous()) {
            assertEquals(ResultCode.SUCCESS, c.bind(dn, "pw-" + scheme).getResultCode());
            assertEquals("dn:" + dn, whoAmI(c));
            assertEquals(ResultCode.INVALID_CREDENTIALS, bindFails(c, dn, "pw-" + scheme + "x"));
        }
    }

    @Test
    void cleartextUserPasswordIsRefusedByDefault() throws Exception {
        try (LDAPConnection c = larch.server().anonymous()) {
            assertEquals(ResultCode.INVALID_CREDENTIALS, bindFails(c, "uid=cleartext," + PEOPLE, "plain-pw"));
        }
    }

    @Test
    void cleartextUserPasswordBindsWhenTheConfigAllowsIt(@TempDir Path other) throws Exception {
        LarchConfig config = TestServer.settings(other.resolve("data"))
                .set("security.allow-cleartext-passwords", true)
                .set("security.password-scheme", "SSHA256")
                .set("security.bind-failure-delay-ms", 200)
                .set("security.bind-failure-max-delay-ms", 5_000)
                .build();
        // Imported: an add would hash the value, and then this would not test cleartext at all.
        TestServer.importOffline(config, TestServer.BASE_LDIF + "\n" + person("cleartext", "plain-pw"));
        try (TestServer permissive = TestServer.start(config)) {
            try (LDAPConnection c = permissive.anonymous()) {
                assertEquals(
                        ResultCode.SUCCESS,
                        c.bind("uid=cleartext," + PEOPLE, "plain-pw").getResultCode());
                assertEquals(ResultCode.INVALID_CREDENTIALS, bindFails(c, "uid=cleartext," + PEOPLE, "plain-px"));
            }
        }
    }

    @Test
    void wrongPasswordAndUnknownDnGetTheSameInvalidCredentials() throws Exception {
        try (LDAPConnection c = larch.server().anonymous()) {
            assertEquals(ResultCode.INVALID_CREDENTIALS, bindFails(c, TestServer.ADMIN_DN, "wrong"));
            assertEquals(ResultCode.INVALID_CREDENTIALS, bindFails(c, "uid=nobody," + PEOPLE, "whatever"));
            assertEquals(ResultCode.INVALID_CREDENTIALS, bindFails(c, "uid=x,ou=elsewhere,dc=other", "whatever"));
        }
    }

    @Test
    void unknownDnMissingPasswordAndWrongPasswordAreIndistinguishable() throws Exception {
        try (LDAPConnection c = larch.server().anonymous()) {
            LDAPException wrong = assertThrows(LDAPException.class, () -> c.bind("uid=ssha," + PEOPLE, "pw-wrong"));
            for (String dn : new String[] {"uid=nobody," + PEOPLE, "uid=x,ou=elsewhere,dc=other", PEOPLE}) {
                LDAPException e = assertThrows(LDAPException.class, () -> c.bind(dn, "pw-wrong"));
                assertEquals(wrong.getResultCode(), e.getResultCode(), dn);
                assertEquals(wrong.getDiagnosticMessage(), e.getDiagnosticMessage(), dn);
                assertEquals(wrong.getMatchedDN(), e.getMatchedDN(), dn);
            }
            assertEquals(ResultCode.INVALID_CREDENTIALS, wrong.getResultCode());
        }
    }

    @Test
    void storedHashAboveTheIterationBoundIsRefusedEvenWithTheRightPassword() throws Exception {
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        log.start();
        Logger bindLog = (Logger) LoggerFactory.getLogger(BindHandler.class);
        bindLog.addAppender(log);
        try (LDAPConnection c = larch.server().anonymous()) {
            for (int i = 0; i < 2; i++) {
                LDAPException e = assertThrows(LDAPException.class, () -> c.bind("uid=costly," + PEOPLE, "costly-pw"));
                assertEquals(ResultCode.INVALID_CREDENTIALS, e.getResultCode());
                assertEquals("invalid credentials", e.getDiagnosticMessage());
            }
            assertEquals("", whoAmI(c));
        } finally {
            bindLog.detachAppender(log);
        }
        // one WARN line for the DN, without a stack trace, however often it is tried
        List<ILoggingEvent> warnings =
                log.list.stream().filter(e -> e.getLevel() == Level.WARN).toList();
        assertEquals(1, warnings.size(), warnings.toString());
        assertEquals(null, warnings.get(0).getThrowableProxy());
        assertTrue(warnings.get(0).getFormattedMessage().contains("security.max-password-iterations"));
    }

    @Test
    void entryWithoutUserPasswordCannotBind() throws Exception {
        try (LDAPConnection c = larch.server().anonymous()) {
            assertEquals(ResultCode.INVALID_CREDENTIALS, bindFails(c, PEOPLE, "whatever"));
        }
    }

    @Test
    void dnWithEmptyPasswordIsUnwillingToPerform() throws Exception {
        try (LDAPConnection c = larch.server().anonymous()) {
            assertEquals(ResultCode.UNWILLING_TO_PERFORM, bindFails(c, TestServer.ADMIN_DN, ""));
            assertEquals("", whoAmI(c));
        }
    }

    @Test
    void malformedBindDnIsInvalidDnSyntax() throws Exception {
        try (LDAPConnection c = larch.server().anonymous()) {
            assertEquals(ResultCode.INVALID_DN_SYNTAX, bindFails(c, "not a dn", "pw"));
        }
    }

    @Test
    void saslBindIsAuthMethodNotSupported() throws Exception {
        try (LDAPConnection c = larch.server().anonymous()) {
            LDAPException e = assertThrows(
                    LDAPException.class,
                    () -> c.bind(new PLAINBindRequest("dn:" + TestServer.ADMIN_DN, TestServer.ADMIN_PASSWORD)));
            assertEquals(ResultCode.AUTH_METHOD_NOT_SUPPORTED, e.getResultCode());
        }
    }

    @Test
    void failedBindLeavesTheConnectionAnonymous() throws Exception {
        try (LDAPConnection c = larch.server().admin()) {
            assertEquals("dn:" + TestServer.ADMIN_DN, whoAmI(c));
            assertEquals(ResultCode.INVALID_CREDENTIALS, bindFails(c, TestServer.ADMIN_DN, "wrong"));
            assertEquals("", whoAmI(c));
            // and the former admin rights are gone
            LDAPException e = assertThrows(
                    LDAPException.class,
                    () -> c.modify(PEOPLE, new Modification(ModificationType.REPLACE, "description", "x")));
            assertEquals(ResultCode.INSUFFICIENT_ACCESS_RIGHTS, e.getResultCode());
        }
    }

    @Test
    void apacheClientBindsAndIsRefusedWithTheSameCodes() throws Exception {
        try (LdapNetworkConnection c = larch.server().apache()) {
            c.bind(TestServer.ADMIN_DN, TestServer.ADMIN_PASSWORD);
            assertEquals(true, c.isAuthenticated());
            assertThrows(LdapAuthenticationException.class, () -> c.bind(TestServer.ADMIN_DN, "wrong"));
            c.bind("uid=ssha512," + PEOPLE, "pw-SSHA512");
            assertEquals(true, c.isAuthenticated());
        }
    }
}
