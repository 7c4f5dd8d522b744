package dev.larch.server.quota;

import java.net.InetAddress;
import java.net.InetSocketAddress;

import org.apache.directory.api.ldap.model.name.Dn;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class QuotaKeyTest {

    @Test
    void anAddressIsItsIpWhateverThePort() throws Exception {
        InetAddress ip = InetAddress.getByName("192.0.2.7");
        assertEquals(
                QuotaKey.ofAddress(new InetSocketAddress(ip, 1000)),
                QuotaKey.ofAddress(new InetSocketAddress(ip, 2000)));
        assertNotEquals(
                QuotaKey.ofAddress(new InetSocketAddress(ip, 1000)),
                QuotaKey.ofAddress(new InetSocketAddress(InetAddress.getByName("192.0.2.8"), 1000)));
    }

    @Test
    void anIpv4AddressIsKeyedAsItsMappedIpv6Form() throws Exception {
        assertEquals(new QuotaKey(0, 0xFFFF_C000_0207L), QuotaKey.ofIp(InetAddress.getByName("192.0.2.7")));
        assertEquals(new QuotaKey(0x2001_0db8_0000_0000L, 1), QuotaKey.ofIp(InetAddress.getByName("2001:db8::1")));
    }

    @Test
    void identitiesAreComparedByTheirNormalizedDn() throws Exception {
        Dn alice = new Dn("uid=alice,dc=example,dc=com");
        assertEquals(QuotaKey.ofIdentity(alice), QuotaKey.ofIdentity(new Dn("uid=alice,  dc=example,dc=com")));
        assertNotEquals(QuotaKey.ofIdentity(alice), QuotaKey.ofIdentity(new Dn("uid=bob,dc=example,dc=com")));
    }
}
