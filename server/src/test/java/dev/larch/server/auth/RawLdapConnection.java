package dev.larch.server.auth;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.util.List;

import com.unboundid.asn1.ASN1StreamReader;
import com.unboundid.ldap.protocol.BindRequestProtocolOp;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.SearchRequestProtocolOp;
import com.unboundid.ldap.sdk.DereferencePolicy;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.SearchScope;

import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * A client connection that writes requests exactly as told, several in one write, and reads the
 * responses in the order the server sent them: for tests about the order of answers, which a
 * client library hides.
 */
final class RawLdapConnection implements AutoCloseable {
    private final Socket socket;
    private final OutputStream out;
    private final ASN1StreamReader in;

    RawLdapConnection(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(30_000);
        out = socket.getOutputStream();
        in = new ASN1StreamReader(socket.getInputStream());
    }

    static LDAPMessage bind(int id, String dn, String password) {
        return new LDAPMessage(id, new BindRequestProtocolOp(dn, password));
    }

    static LDAPMessage baseSearch(int id, String base) {
        return new LDAPMessage(
                id,
                new SearchRequestProtocolOp(
                        base,
                        SearchScope.BASE,
                        DereferencePolicy.NEVER,
                        0,
                        0,
                        false,
                        Filter.createPresenceFilter("objectClass"),
                        List.of("1.1")));
    }

    /** Sends the messages in a single write, so the server reads them in this order. */
    void send(LDAPMessage... messages) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (LDAPMessage message : messages) {
            bytes.writeBytes(message.encode().encode());
        }
        out.write(bytes.toByteArray());
        out.flush();
    }

    /** The next response; fails the test if the server closed the connection. */
    LDAPMessage read() throws LDAPException {
        LDAPMessage message = LDAPMessage.readFrom(in, false);
        assertNotNull(message, "connection closed by the server");
        return message;
    }

    /** Bytes received and not yet read: 0 means no response has arrived since the last {@link #read}. */
    int available() throws IOException {
        return socket.getInputStream().available();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
