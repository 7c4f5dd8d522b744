package dev.larch.server.replica;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.CopyOnWriteArrayList;

/** A TCP forwarder to a server whose connections a test can cut, as a provider going away would. */
final class KillableProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final int target;
    private final CopyOnWriteArrayList<Socket> sockets = new CopyOnWriteArrayList<>();

    KillableProxy(int target) throws IOException {
        this(InetAddress.getLoopbackAddress(), target);
    }

    /** A forwarder listening on {@code address} (any loopback address: 127.0.0.2 reaches this host too). */
    KillableProxy(InetAddress address, int target) throws IOException {
        this.target = target;
        this.listener = new ServerSocket(0, 50, address);
        Thread accept = new Thread(this::accept, "proxy-accept");
        accept.setDaemon(true);
        accept.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    /** Closes every connection forwarded so far, on both sides. */
    void cutAll() throws IOException {
        for (Socket s : sockets) {
            s.close();
        }
        sockets.clear();
    }

    @Override
    public void close() throws IOException {
        listener.close();
        cutAll();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(InetAddress.getLoopbackAddress(), target);
                sockets.add(client);
                sockets.add(server);
                pump(client, server);
                pump(server, client);
            } catch (IOException e) {
                return;
            }
        }
    }

    private static void pump(Socket from, Socket to) {
        Thread t = new Thread(
                () -> {
                    byte[] buffer = new byte[8192];
                    try (InputStream in = from.getInputStream();
                            OutputStream out = to.getOutputStream()) {
                        int n;
                        while ((n = in.read(buffer)) >= 0) {
                            out.write(buffer, 0, n);
                        }
                    } catch (IOException e) {
                        // cut
                    } finally {
                        try {
                            from.close();
                            to.close();
                        } catch (IOException e) {
                            // already closed
                        }
                    }
                },
                "proxy-pump");
        t.setDaemon(true);
        t.start();
    }
}
