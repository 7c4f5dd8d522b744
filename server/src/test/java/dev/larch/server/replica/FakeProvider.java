package dev.larch.server.replica;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import com.unboundid.asn1.ASN1StreamReader;
import com.unboundid.ldap.protocol.BindResponseProtocolOp;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.controls.ContentSyncRequestControl;

/**
 * A provider that is not one: accepts connections, answers any bind with success, then answers each
 * search with what the test scripts, as raw PDUs. Records the Sync Request controls it was sent.
 */
final class FakeProvider implements AutoCloseable {

    /** What to send for one search: its message ID, which search of the connection it is (0-based). */
    interface Script {
        List<byte[]> answer(int messageId, int search) throws Exception;
    }

    final List<ContentSyncRequestControl> requests = new CopyOnWriteArrayList<>();
    final AtomicInteger connections = new AtomicInteger();

    private final ServerSocket listener;
    private final Script script;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    FakeProvider(Script script) throws IOException {
        this.script = script;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread accept = new Thread(this::accept, "fake-provider");
        accept.setDaemon(true);
        accept.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    static byte[] pdu(LDAPMessage message) {
        return message.encode().encode();
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket s : sockets) {
            s.close();
        }
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket socket = listener.accept();
                sockets.add(socket);
                connections.incrementAndGet();
                Thread t = new Thread(() -> serve(socket), "fake-provider-connection");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket socket) {
        try (socket;
                ASN1StreamReader in = new ASN1StreamReader(socket.getInputStream())) {
            OutputStream out = socket.getOutputStream();
            int searches = 0;
            while (true) {
                LDAPMessage request = LDAPMessage.readFrom(in, true);
                if (request == null) {
                    return;
                }
                switch (request.getProtocolOpType()) {
                    case LDAPMessage.PROTOCOL_OP_TYPE_BIND_REQUEST ->
                        out.write(pdu(new LDAPMessage(
                                request.getMessageID(), new BindResponseProtocolOp(0, null, null, null, null))));
                    case LDAPMessage.PROTOCOL_OP_TYPE_SEARCH_REQUEST -> {
                        for (Control c : request.getControls()) {
                            if (c.getOID().equals(ContentSyncRequestControl.SYNC_REQUEST_OID)) {
                                requests.add(new ContentSyncRequestControl(c));
                            }
                        }
                        for (byte[] pdu : script.answer(request.getMessageID(), searches++)) {
                            out.write(pdu);
                        }
                    }
                    default -> {
                        // ignored
                    }
                }
                out.flush();
            }
        } catch (IOException | LDAPException e) {
            // the session closed the connection
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
