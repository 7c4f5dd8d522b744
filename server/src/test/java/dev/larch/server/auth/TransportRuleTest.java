package dev.larch.server.auth;

import java.net.InetSocketAddress;
import java.util.List;

import dev.larch.server.error.ResultCodeException;
import dev.larch.server.protocol.Session;
import dev.larch.server.protocol.TlsState;
import io.netty.channel.embedded.EmbeddedChannel;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@code security.require-tls-for-binds}: who may send a password without TLS. */
class TransportRuleTest {
    private static final TransportRule REQUIRED = new TransportRule(true);

    private static Session from(String address) {
        return new Session(1, new InetSocketAddress(address, 40_000));
    }

    @Test
    void aRemoteClearConnectionIsConfidentialityRequired() {
        ResultCodeException e =
                assertThrows(ResultCodeException.class, () -> REQUIRED.checkPasswordMayTravel(from("192.0.2.7")));
        assertEquals(ResultCodeEnum.CONFIDENTIALITY_REQUIRED, e.code());
    }

    @Test
    void aRemoteConnectionUnderTlsMaySendPasswords() {
        Session session = from("192.0.2.7");
        session.secured(new TlsState("TLSv1.3", "TLS_AES_128_GCM_SHA256", List.of()));
        assertDoesNotThrow(() -> REQUIRED.checkPasswordMayTravel(session));
    }

    @Test
    void loopbackIsExemptForBothFamilies() {
        assertDoesNotThrow(() -> REQUIRED.checkPasswordMayTravel(from("127.0.0.1")));
        assertDoesNotThrow(() -> REQUIRED.checkPasswordMayTravel(from("127.8.9.10")));
        assertDoesNotThrow(() -> REQUIRED.checkPasswordMayTravel(from("::1")));
    }

    @Test
    void anInProcessChannelIsLocal() {
        assertDoesNotThrow(
                () -> REQUIRED.checkPasswordMayTravel(new Session(1, new EmbeddedChannel().remoteAddress())));
    }

    @Test
    void switchedOffAnyoneMaySendPasswordsInClear() {
        assertDoesNotThrow(() -> new TransportRule(false).checkPasswordMayTravel(from("192.0.2.7")));
    }
}
