package dev.larch.server.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import javax.net.SocketFactory;
import javax.net.ssl.SSLSocketFactory;

/**
 * The socket factory JNDI makes LDAPS connections with when the command line trusts the authorities
 * of {@code tls.ca-certificates} rather than the JVM's: JNDI takes a factory only by class name
 * ({@code java.naming.ldap.factory.socket}) and asks that class's static {@link #getDefault()}, so the
 * sockets to hand out are set here first ({@link #use}). JNDI still checks the server's host name.
 *
 * <p>For the command line only, one connection at a time: the factory set is process-wide.
 */
public final class TrustedLdapsSockets extends SocketFactory {
    private static volatile SSLSocketFactory current;

    private final SSLSocketFactory sockets;

    private TrustedLdapsSockets(SSLSocketFactory sockets) {
        this.sockets = sockets;
    }

    /** Sets the sockets the next LDAPS connections are made with. */
    static void use(SSLSocketFactory sockets) {
        current = sockets;
    }

    /** Called by JNDI, by reflection. */
    public static SocketFactory getDefault() {
        SSLSocketFactory sockets = current;
        if (sockets == null) {
            throw new IllegalStateException("no trusted sockets were set");
        }
        return new TrustedLdapsSockets(sockets);
    }

    @Override
    public Socket createSocket() throws IOException {
        return sockets.createSocket();
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return sockets.createSocket(host, port);
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return sockets.createSocket(host, port, localHost, localPort);
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return sockets.createSocket(host, port);
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
            throws IOException {
        return sockets.createSocket(address, port, localAddress, localPort);
    }
}
