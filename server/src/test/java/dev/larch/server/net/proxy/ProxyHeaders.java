package dev.larch.server.net.proxy;

import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * PROXY protocol headers as bytes (haproxy's proxy-protocol.txt, 2020-03-05), each annotated with the
 * fields it encodes.
 */
public final class ProxyHeaders {

    /** The v2 signature: {@code \r\n\r\n\0\r\nQUIT\n}. */
    public static final byte[] V2_SIGNATURE = HexFormat.of().parseHex("0d0a0d0a000d0a515549540a");

    private ProxyHeaders() {}

    /**
     * A v2 PROXY header of a TCP connection from {@code source}:{@code sourcePort} to 192.0.2.1:389
     * (IPv4) or 2001:db8::1:389 (IPv6), followed by {@code tlvs} (already encoded).
     *
     * <pre>
     * signature (12) | 0x21 version 2, PROXY | 0x11 TCP over IPv4 or 0x21 TCP over IPv6 | length (2)
     * | source address (4 or 16) | destination address | source port (2) | destination port (2) | TLVs
     * </pre>
     */
    public static byte[] v2(String source, int sourcePort, byte[] tlvs) {
        byte[] from = address(source);
        byte[] to = address(from.length == 4 ? "192.0.2.1" : "2001:db8::1");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(V2_SIGNATURE);
        out.write(0x21);
        out.write(from.length == 4 ? 0x11 : 0x21);
        int length = 2 * from.length + 4 + tlvs.length;
        out.write(length >> 8);
        out.write(length);
        out.writeBytes(from);
        out.writeBytes(to);
        out.write(sourcePort >> 8);
        out.write(sourcePort);
        out.write(389 >> 8);
        out.write(389 & 0xFF);
        out.writeBytes(tlvs);
        return out.toByteArray();
    }

    public static byte[] v2(String source, int sourcePort) {
        return v2(source, sourcePort, new byte[0]);
    }

    /** A v2 LOCAL header (0x20), as health checks send: family UNSPEC (0x00), no address block. */
    public static byte[] v2Local() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(V2_SIGNATURE);
        out.writeBytes(new byte[] {0x20, 0x00, 0x00, 0x00});
        return out.toByteArray();
    }

    /** One TLV: type (1), length (2), value. */
    public static byte[] tlv(int type, byte[] value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(type);
        out.write(value.length >> 8);
        out.write(value.length);
        out.writeBytes(value);
        return out.toByteArray();
    }

    /** A v1 header: {@code PROXY TCP4|TCP6 source destination sport 389\r\n}. */
    public static byte[] v1(String source, int sourcePort) {
        boolean v6 = source.indexOf(':') >= 0;
        String line = "PROXY " + (v6 ? "TCP6 " : "TCP4 ") + source + " " + (v6 ? "2001:db8::1" : "192.0.2.1") + " "
                + sourcePort + " 389\r\n";
        return line.getBytes(StandardCharsets.US_ASCII);
    }

    public static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    private static byte[] address(String literal) {
        try {
            return InetAddress.getByName(literal).getAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(literal, e);
        }
    }
}
