package dev.larch.server.net;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;

import org.apache.directory.api.asn1.DecoderException;
import org.apache.directory.api.asn1.ber.Asn1Decoder;
import org.apache.directory.api.ldap.codec.api.LdapApiServiceFactory;
import org.apache.directory.api.ldap.codec.api.LdapMessageContainer;
import org.apache.directory.api.ldap.model.message.Message;

/** A socket that writes raw bytes and reads whole LDAPMessages back, for bad-input tests. */
final class RawClient implements AutoCloseable {

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;

    RawClient(InetSocketAddress address) throws IOException {
        this(address, null);
    }

    /** A client whose end of the connection is {@code local} (any port), or any address when null. */
    RawClient(InetSocketAddress address, InetAddress local) throws IOException {
        socket = new Socket();
        if (local != null) {
            socket.bind(new InetSocketAddress(local, 0));
        }
        socket.connect(address, 5_000);
        socket.setSoTimeout(5_000);
        in = new DataInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    /** Sends each {@link #send} at once, however small (no Nagle delay): to split bytes into many packets. */
    RawClient noDelay() throws IOException {
        socket.setTcpNoDelay(true);
        return this;
    }

    /** How long a read waits before giving up (5 seconds unless set). */
    RawClient soTimeout(int millis) throws IOException {
        socket.setSoTimeout(millis);
        return this;
    }

    RawClient send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
        return this;
    }

    /** Reads one LDAPMessage and decodes it with the Apache LDAP API. */
    Message read() throws IOException {
        return readMessage(in);
    }

    /** Reads one whole LDAPMessage from {@code stream} (plain or TLS) and decodes it. */
    static Message readMessage(InputStream stream) throws IOException {
        DataInputStream in = new DataInputStream(stream);
        int tag = in.readUnsignedByte();
        int first = in.readUnsignedByte();
        int length = first;
        byte[] lengthOctets = new byte[0];
        if (first >= 0x80) {
            lengthOctets = new byte[first & 0x7F];
            in.readFully(lengthOctets);
            length = 0;
            for (byte b : lengthOctets) {
                length = (length << 8) | (b & 0xFF);
            }
        }
        byte[] pdu = new byte[2 + lengthOctets.length + length];
        pdu[0] = (byte) tag;
        pdu[1] = (byte) first;
        System.arraycopy(lengthOctets, 0, pdu, 2, lengthOctets.length);
        in.readFully(pdu, 2 + lengthOctets.length, length);
        LdapMessageContainer<Message> container = new LdapMessageContainer<>(LdapApiServiceFactory.getSingleton());
        try {
            Asn1Decoder.decode(ByteBuffer.wrap(pdu), container);
        } catch (DecoderException e) {
            throw new IOException(e);
        }
        return container.getMessage();
    }

    /** True when the server closed the connection (end of stream) without sending anything more. */
    boolean closedByServer() throws IOException {
        try {
            return in.read() == -1;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // connection reset
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    static void assertEof(RawClient client) throws IOException {
        if (!client.closedByServer()) {
            throw new EOFException("server kept the connection open");
        }
    }
}
