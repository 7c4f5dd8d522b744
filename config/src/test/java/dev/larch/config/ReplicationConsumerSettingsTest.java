package dev.larch.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code replication.consumer.<rid>.*} and the two replication scalars: defaults, and an error naming each bad key. */
class ReplicationConsumerSettingsTest {
    @TempDir
    Path dir;

    @Test
    void noConsumersAndSingleProviderByDefault() {
        Replication r = LarchConfig.defaults().replication();
        assertTrue(r.consumers().isEmpty());
        assertFalse(r.multiProvider());
        assertEquals(300, r.maxClockSkewSeconds());
    }

    @Test
    void aConsumerTakesTheDefaultsOfEveryFieldItDoesNotSet() throws Exception {
        ReplicationConsumer c = only(Map.of(
                "replication.consumer.7.provider-url", "ldap://provider.example.com",
                "replication.consumer.7.bind-dn", "cn=replicator,dc=example,dc=com",
                "replication.consumer.7.bind-password", "secret"));
        assertEquals(7, c.rid());
        assertEquals("provider.example.com", c.host());
        assertEquals(389, c.port());
        assertFalse(c.ldaps());
        assertFalse(c.startTls());
        assertEquals("secret", c.bindPassword());
        assertEquals(ReplicationConsumer.Mode.REFRESH_AND_PERSIST, c.mode());
        assertEquals(60, c.intervalSeconds());
        assertEquals(5, c.retrySeconds());
        assertEquals(300, c.maxRetrySeconds());
        assertFalse(c.toString().contains("secret"), c.toString());
    }

    @Test
    void consumersComeInRidOrderWithEveryFieldRead() throws Exception {
        Path secret = dir.resolve("secret");
        Files.writeString(secret, "from file\n");
        LarchConfig config = LarchConfig.builder()
                .set("replication.multi-provider", "true")
                .set("replication.max-clock-skew-seconds", "60")
                .set("replication.consumer.12.provider-url", "ldaps://b.example.com:1636")
                .set("replication.consumer.12.bind-dn", "cn=r,dc=example,dc=com")
                .set("replication.consumer.12.bind-password-file", secret.toString())
                .set("replication.consumer.12.mode", "refreshonly")
                .set("replication.consumer.12.interval-seconds", "10")
                .set("replication.consumer.12.retry-seconds", "2")
                .set("replication.consumer.12.max-retry-seconds", "8")
                .set("replication.consumer.3.provider-url", "ldap://127.0.0.1:1389")
                .set("replication.consumer.3.bind-dn", "cn=r,dc=example,dc=com")
                .set("replication.consumer.3.bind-password", "p")
                .set("replication.consumer.3.start-tls", "true")
                .set("tls.ca-certificates", dir.resolve("ca.pem").toString())
                .build();
        Replication r = config.replication();
        assertTrue(r.multiProvider());
        assertEquals(60, r.maxClockSkewSeconds());
        assertEquals(
                List.of(3, 12),
                r.consumers().stream().map(ReplicationConsumer::rid).toList());
        ReplicationConsumer b = r.consumers().get(1);
        assertEquals("from file", b.bindPassword());
        assertTrue(b.ldaps());
        assertEquals(1636, b.port());
        assertEquals(ReplicationConsumer.Mode.REFRESH_ONLY, b.mode());
        assertEquals(10, b.intervalSeconds());
        assertEquals(2, b.retrySeconds());
        assertEquals(8, b.maxRetrySeconds());
        assertTrue(r.consumers().get(0).startTls());
    }

    @Test
    void aProviderReachedOverTlsNeedsTheAuthoritiesToCheckItsCertificateWith() {
        String p = "replication.consumer.1.";
        assertRefused(
                p + "start-tls",
                "tls.ca-certificates must name the authorities",
                with(base(p + "provider-url", "ldap://h"), p + "start-tls", "true"));
        assertRefused(p + "provider-url", "tls.ca-certificates must name", base(p + "provider-url", "ldaps://h"));
    }

    @Test
    void everyBadValueIsRefusedNamingItsKey() throws Exception {
        Path empty = dir.resolve("empty");
        Files.writeString(empty, "\n");
        String p = "replication.consumer.1.";
        assertRefused(p + "provider-url", "must be set", Map.of(p + "bind-dn", "cn=r", p + "bind-password", "x"));
        assertRefused(p + "provider-url", "expected ldap://", base(p + "provider-url", "http://h:1"));
        assertRefused(p + "provider-url", "expected ldap://", base(p + "provider-url", "ldap://h:1/dc=x"));
        assertRefused(p + "provider-url", "expected ldap://", base(p + "provider-url", "ldap://h:70000"));
        assertRefused(
                p + "start-tls", "ldaps://", with(base(p + "provider-url", "ldaps://h"), p + "start-tls", "true"));
        assertRefused(
                p + "bind-dn", "expected a DN", with(base(p + "provider-url", "ldap://h"), p + "bind-dn", "nodn"));
        assertRefused(
                p + "bind-password-file",
                "not both",
                with(base(p + "provider-url", "ldap://h"), p + "bind-password-file", empty.toString()));
        assertRefused(
                p + "bind-password", "must be set", Map.of(p + "provider-url", "ldap://h", p + "bind-dn", "cn=r"));
        Map<String, String> fileOnly = Map.of(
                p + "provider-url", "ldap://h", p + "bind-dn", "cn=r", p + "bind-password-file", empty.toString());
        assertRefused(p + "bind-password-file", "is empty", fileOnly);
        assertRefused(
                p + "bind-password-file",
                "cannot read " + dir.resolve("missing") + ": no such file",
                with(fileOnly, p + "bind-password-file", dir.resolve("missing").toString()));
        assertRefused(p + "mode", "expected one of", with(base(p + "provider-url", "ldap://h"), p + "mode", "push"));
        assertRefused(
                p + "interval-seconds",
                "expected an integer",
                with(base(p + "provider-url", "ldap://h"), p + "interval-seconds", "0"));
        assertRefused(
                p + "max-retry-seconds",
                "must not be less than",
                with(
                        with(base(p + "provider-url", "ldap://h"), p + "retry-seconds", "10"),
                        p + "max-retry-seconds",
                        "5"));
        assertRefused(
                "replication.consumer.1000.provider-url",
                "unknown key",
                Map.of("replication.consumer.1000.provider-url", "ldap://h"));
        assertRefused(
                "replication.consumer.0.provider-url",
                "unknown key",
                Map.of("replication.consumer.0.provider-url", "ldap://h"));
        assertRefused(p + "filter", "unknown key", Map.of(p + "filter", "(cn=*)"));
        assertRefused(
                "replication.max-clock-skew-seconds",
                "expected an integer",
                Map.of("replication.max-clock-skew-seconds", "0"));
        assertRefused(
                "replication.multi-provider", "expected true or false", Map.of("replication.multi-provider", "maybe"));
    }

    private static Map<String, String> base(String key, String value) {
        String p = "replication.consumer.1.";
        return with(Map.of(p + "bind-dn", "cn=r", p + "bind-password", "x"), key, value);
    }

    private static Map<String, String> with(Map<String, String> settings, String key, String value) {
        var copy = new LinkedHashMap<>(settings);
        copy.put(key, value);
        return copy;
    }

    private static void assertRefused(String key, String expected, Map<String, String> settings) {
        LarchConfig.Builder builder = LarchConfig.builder();
        settings.forEach(builder::set);
        // The builder wraps the loader's ConfigException; its message is the one a file would get.
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, builder::build, key);
        assertTrue(e.getMessage().startsWith(LarchConfig.Builder.SOURCE + ": " + key + ": "), e.getMessage());
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    private static ReplicationConsumer only(Map<String, String> settings) throws ConfigException {
        LarchConfig.Builder builder = LarchConfig.builder();
        settings.forEach(builder::set);
        List<ReplicationConsumer> consumers = builder.build().replication().consumers();
        assertEquals(1, consumers.size());
        return consumers.get(0);
    }
}
