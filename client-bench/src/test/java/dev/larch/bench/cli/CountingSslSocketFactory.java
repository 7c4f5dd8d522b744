package dev.larch.bench.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLSocketFactory;

/**
 * An SSL socket factory that counts the sockets it secures: a StartTLS listener upgrades each
 * connection through {@link #createSocket(Socket, String, int, boolean)}, so the count is the number
 * of connections a client secured.
 */
final class CountingSslSocketFactory extends SSLSocketFactory {
    private final SSLSocketFactory delegate;
    private final AtomicLong secured = new AtomicLong();

    CountingSslSocketFactory(SSLSocketFactory delegate) {
        this.delegate = delegate;
    }

    long secured() {
        return secured.get();
    }

    @Override
    public Socket createSocket(Socket s, String host, int port, boolean autoClose) throws IOException {
        secured.incrementAndGet();
        return delegate.createSocket(s, host, port, autoClose);
    }

    @Override
    public String[] getDefaultCipherSuites() {
        return delegate.getDefaultCipherSuites();
    }

    @Override
    public String[] getSupportedCipherSuites() {
        return delegate.getSupportedCipherSuites();
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return delegate.createSocket(host, port);
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return delegate.createSocket(host, port, localHost, localPort);
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return delegate.createSocket(host, port);
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
            throws IOException {
        return delegate.createSocket(address, port, localAddress, localPort);
    }
}
