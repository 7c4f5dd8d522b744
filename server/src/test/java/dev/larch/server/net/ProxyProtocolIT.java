package dev.larch.server.net;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import dev.larch.server.net.proxy.ProxyHeaders;
import dev.larch.server.testing.LarchServerExtension;
import dev.larch.server.testing.TestServer;
import org.apache.directory.api.ldap.model.message.BindResponse;
import org.apache.directory.api.ldap.model.message.ExtendedResponse;
import org.apache.directory.api.ldap.model.message.Message;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.SearchResultDone;
import org.apache.directory.api.ldap.model.message.SearchResultEntry;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code listen.proxy-protocol-from}: a load balancer at 127.0.0.2 (the only listed address) prefixes
 * each connection with a PROXY header, and everything keyed by the client address sees the client it
 * names. Test clients at 127.0.0.1 (fixtures, and the attacker who sends a header unasked) are not
 * balancers. Each test uses client addresses of its own, as the per-address counts are the server's.
 */
class ProxyProtocolIT {
    static final InetAddress BALANCER = loopback(2);
    static final InetAddress ELSEWHERE = loopback(1);
    static final String HIDDEN = "cn=hidden-from-203.0.113.7,ou=groups," + TestServer.SUFFIX;
    static final String HIDDEN_LDIF =
            "dn: " + HIDDEN + "\nobjectClass: organizationalRole\ncn: hidden-from-203.0.113.7\n"
                    + "aci: (targetattr=\"*\")(version 3.0; acl \"not for 203.0.113.7\"; deny (all) ip = \"203.0.113.7\";)\n";
    static final Path ACCESS_LOG = tempFile();

    @RegisterExtension
    static final LarchServerExtension proxied = LarchServerExtension.withBaseTree()
            .adding(HIDDEN_LDIF)
            .configured(c -> TestServer.withAccessLog(c)
                    .set("logging.access-log-format", "text")
                    .set("logging.access-log-file", ACCESS_LOG)
                    .set("logging.access-log-max-history", 2)
                    .set("listen.max-connections-per-address", 3)
                    .set("listen.proxy-protocol-from", "127.0.0.2/32"));

    /** The same server without the setting. */
    @RegisterExtension
    static final LarchServerExtension plain =
            LarchServerExtension.withBaseTree().adding(HIDDEN_LDIF);

    @AfterAll
    static void deleteTheAccessLog() throws IOException {
        try (Stream<Path> files = Files.list(ACCESS_LOG.getParent())) {
            for (Path file : files.toList()) {
                Files.delete(file);
            }
        }
        Files.delete(ACCESS_LOG.getParent());
    }

    @Test
    void anAciIpRuleJudgesTheClientTheV2HeaderNames() throws Exception {
        try (RawClient seven = balanced(ProxyHeaders.v2("203.0.113.7", 40_001));
                RawClient eight = balanced(ProxyHeaders.v2("203.0.113.8", 40_002))) {
            assertHidden(seven, 1);
            assertVisible(eight, 1);
        }
    }

    @Test
    void aV1HeaderAndAnIpv6ClientWorkToo() throws Exception {
        try (RawClient seven = balanced(ProxyHeaders.v1("203.0.113.7", 40_003));
                RawClient six = balanced(ProxyHeaders.v2("2001:db8::7", 40_004))) {
            assertHidden(seven, 1);
            assertVisible(six, 1);
        }
    }

    @Test
    void aHeaderSentByteByByteIsReassembled() throws Exception {
        byte[] header = ProxyHeaders.v2("203.0.113.7", 40_005);
        try (RawClient seven = new RawClient(address(proxied), BALANCER)) {
            seven.noDelay();
            for (byte b : header) {
                seven.send(new byte[] {b});
                Thread.sleep(2);
            }
            assertHidden(seven, 1);
        }
    }

    @Test
    void aHeaderJoinedWithTheFirstMessagesInOneWriteIsSplitOffThem() throws Exception {
        try (RawClient seven = new RawClient(address(proxied), BALANCER)) {
            seven.send(ProxyHeaders.concat(
                    ProxyHeaders.v2("203.0.113.7", 40_006),
                    Fixtures.simpleBind(1, "", ""),
                    Fixtures.baseSearch(2, HIDDEN, Fixtures.objectClassPresent())));
            assertEquals(
                    ResultCodeEnum.SUCCESS,
                    assertInstanceOf(BindResponse.class, seven.read())
                            .getLdapResult()
                            .getResultCode());
            assertEquals(
                    ResultCodeEnum.NO_SUCH_OBJECT,
                    assertInstanceOf(SearchResultDone.class, seven.read())
                            .getLdapResult()
                            .getResultCode());
        }
    }

    @Test
    void theConnectionLimitPerAddressCountsTheProxiedClientsNotTheBalancer() throws Exception {
        List<RawClient> open = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                open.add(balanced(ProxyHeaders.v2("198.51.100.1", 41_000 + i)));
                assertVisible(open.get(i), 1);
            }
            try (RawClient fourth = balanced(ProxyHeaders.v2("198.51.100.1", 41_003))) {
                ExtendedResponse notice = assertInstanceOf(ExtendedResponse.class, fourth.read());
                assertEquals(ResultCodeEnum.BUSY, notice.getLdapResult().getResultCode());
                String message = notice.getLdapResult().getDiagnosticMessage();
                assertTrue(
                        message.contains("198.51.100.1") && message.contains("listen.max-connections-per-address"),
                        message);
                RawClient.assertEof(fourth);
            }
            // Another client behind the same balancer has its own count.
            try (RawClient other = balanced(ProxyHeaders.v2("198.51.100.2", 41_004))) {
                assertVisible(other, 1);
            }
        } finally {
            for (RawClient c : open) {
                c.close();
            }
        }
    }

    @Test
    void theAccessLogNamesTheProxiedClientAndALocalHeaderKeepsTheBalancer() throws Exception {
        try (RawClient seven = balanced(ProxyHeaders.v2("203.0.113.7", 40_777));
                RawClient health = balanced(ProxyHeaders.v2Local())) {
            assertHidden(seven, 1);
            assertVisible(health, 1);
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> {
                String log = Files.readString(ACCESS_LOG, StandardCharsets.UTF_8);
                return log.contains(" open from=203.0.113.7:40777") && log.contains(" open from=127.0.0.2:");
            });
        }
    }

    @Test
    void aListedPeerThatSendsLdapWithoutAHeaderIsClosed() throws Exception {
        try (RawClient direct = new RawClient(address(proxied), BALANCER)) {
            direct.send(Fixtures.simpleBind(1, "", ""));
            RawClient.assertEof(direct);
        }
    }

    @Test
    void aHeaderFromAPeerThatIsNotListedIsNeverReadAsOne() throws Exception {
        byte[] spoof = ProxyHeaders.concat(
                ProxyHeaders.v2("203.0.113.8", 40_010),
                Fixtures.simpleBind(1, "", ""),
                Fixtures.baseSearch(2, HIDDEN, Fixtures.objectClassPresent()));
        for (InetSocketAddress server : List.of(address(proxied), address(plain))) {
            try (RawClient attacker = new RawClient(server, ELSEWHERE)) {
                attacker.send(spoof);
                assertNeverServed(attacker);
            }
        }
        // ... nor on a server without the setting, even from the address that is a balancer elsewhere.
        try (RawClient attacker = new RawClient(address(plain), BALANCER)) {
            attacker.send(spoof);
            assertNeverServed(attacker);
        }
    }

    @Test
    void aBadHeaderClosesItsConnectionAndNoOther() throws Exception {
        byte[] truncated = Arrays.copyOf(ProxyHeaders.v2("203.0.113.9", 40_020), 20);
        byte[] oversized = ProxyHeaders.v2("203.0.113.9", 40_021, ProxyHeaders.tlv(0xE0, new byte[60_000]));
        byte[] badVersion = ProxyHeaders.v2("203.0.113.9", 40_022);
        badVersion[12] = 0x31;
        byte[] garbage = "PROXY TCP4 203.0.113.9 nonsense\r\n".getBytes(StandardCharsets.US_ASCII);
        try (RawClient good = balanced(ProxyHeaders.v2("203.0.113.8", 40_023));
                RawClient cut = new RawClient(address(proxied), BALANCER);
                RawClient big = new RawClient(address(proxied), BALANCER);
                RawClient version = new RawClient(address(proxied), BALANCER);
                RawClient text = new RawClient(address(proxied), BALANCER)) {
            cut.send(truncated);
            big.send(oversized);
            version.send(ProxyHeaders.concat(badVersion, Fixtures.simpleBind(1, "", "")));
            text.send(ProxyHeaders.concat(garbage, Fixtures.simpleBind(1, "", "")));
            RawClient.assertEof(big);
            RawClient.assertEof(version);
            RawClient.assertEof(text);
            assertVisible(good, 1);
            // The rest of a cut header never comes: the server stops waiting after a few seconds.
            cut.soTimeout(10_000);
            RawClient.assertEof(cut);
            assertVisible(good, 2);
        }
    }

    private static InetSocketAddress address(LarchServerExtension larch) {
        return new InetSocketAddress(ELSEWHERE, larch.server().port());
    }

    /** A connection from the balancer that sent {@code header}. */
    private static RawClient balanced(byte[] header) throws IOException {
        RawClient client = new RawClient(address(proxied), BALANCER);
        client.send(header);
        return client;
    }

    /** An anonymous base search of the entry denied to 203.0.113.7 is noSuchObject. */
    private static void assertHidden(RawClient client, int id) throws IOException {
        client.send(Fixtures.baseSearch(id, HIDDEN, Fixtures.objectClassPresent()));
        SearchResultDone done = assertInstanceOf(SearchResultDone.class, client.read());
        assertEquals(ResultCodeEnum.NO_SUCH_OBJECT, done.getLdapResult().getResultCode());
    }

    private static void assertVisible(RawClient client, int id) throws IOException {
        client.send(Fixtures.baseSearch(id, HIDDEN, Fixtures.objectClassPresent()));
        assertInstanceOf(SearchResultEntry.class, client.read());
        SearchResultDone done = assertInstanceOf(SearchResultDone.class, client.read());
        assertEquals(ResultCodeEnum.SUCCESS, done.getLdapResult().getResultCode());
    }

    /** The connection is closed, at most after a Notice of Disconnection: no request was answered. */
    private static void assertNeverServed(RawClient client) throws IOException {
        Message first;
        try {
            first = client.read();
        } catch (IOException closed) {
            return;
        }
        ExtendedResponse notice = assertInstanceOf(ExtendedResponse.class, first);
        assertEquals(ProtocolResponses.NOTICE_OF_DISCONNECTION_OID, notice.getResponseName());
        assertFalse(notice.getLdapResult().getResultCode() == ResultCodeEnum.SUCCESS);
        RawClient.assertEof(client);
    }

    private static InetAddress loopback(int last) {
        try {
            return InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) last});
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Path tempFile() {
        try {
            return Files.createTempDirectory("larch-proxy-it-").resolve("access.log");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
