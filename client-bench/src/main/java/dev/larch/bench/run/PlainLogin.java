package dev.larch.bench.run;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

import com.unboundid.asn1.ASN1Buffer;
import com.unboundid.asn1.ASN1StreamReader;
import com.unboundid.ldap.protocol.BindRequestProtocolOp;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.LDAPResponse;
import com.unboundid.ldap.protocol.SearchRequestProtocolOp;
import com.unboundid.ldap.protocol.UnbindRequestProtocolOp;
import com.unboundid.ldap.sdk.BindResult;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPResult;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchResultReference;

/**
 * One churn login over a plain-LDAP socket on the calling thread: connect, simple bind, read the
 * person's entry, unbind, close. The messages are the SDK's own protocol classes, encoded and decoded
 * as an {@code LDAPConnection} would; only the connection object is left out.
 *
 * <p>Why not an {@code LDAPConnection}: it starts a thread for every connect (to time the connect out)
 * and sets up state a one-request connection never uses. In a churn run on this project's two-core
 * machine that made the harness, not the server, the limit: pinned to its own core the harness ran at
 * 94-96% of it against either server, with the connect thread ~30% of its churn samples, and slapd and
 * Larch then made the same number of connections a second. A TLS target keeps the SDK's connection
 * ({@link ChurnCall}): there the handshake outweighs a thread start.
 *
 * <p>Each read waits at most the target's response timeout (a timeout is an error answer, result code
 * 85); a server that closes the connection or sends something that is not the awaited response gives
 * an error answer with the SDK's result code for it. Stateless; each call opens its own socket.
 */
final class PlainLogin {
    /** What the SDK's connections accept by default: larger responses are refused, not buffered. */
    private static final int MAX_MESSAGE_BYTES = 20 * 1024 * 1024;

    private static final int CONNECT_TIMEOUT_MILLIS = 5_000;
    private static final int BIND_ID = 1;
    private static final int SEARCH_ID = 2;
    private static final int UNBIND_ID = 3;

    private PlainLogin() {}

    /** Logs in as {@code bind} says, reads as {@code read} says, and judges both like {@link AuthenticateCall}. */
    static Answer run(ServerTarget target, BindCall bind, SearchCall read) {
        try (Socket socket = new Socket()) {
            socket.setTcpNoDelay(true);
            try {
                socket.connect(new InetSocketAddress(target.host(), target.port()), CONNECT_TIMEOUT_MILLIS);
            } catch (IOException e) {
                return Answer.error(ResultCode.CONNECT_ERROR_INT_VALUE, true);
            }
            socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, Math.max(0, target.responseTimeoutMillis())));
            OutputStream out = socket.getOutputStream();
            ASN1StreamReader in = new ASN1StreamReader(socket.getInputStream(), MAX_MESSAGE_BYTES);
            Answer answer = exchange(out, in, bind, read);
            unbind(out);
            return answer;
        } catch (IOException e) {
            // The server went away mid-login; the worker's own connection is not affected.
            return Answer.error(ResultCode.SERVER_DOWN_INT_VALUE, true);
        } catch (LDAPException e) {
            return Answer.error(e.getResultCode().intValue(), true);
        }
    }

    private static Answer exchange(OutputStream out, ASN1StreamReader in, BindCall bind, SearchCall read)
            throws IOException, LDAPException {
        send(out, new LDAPMessage(BIND_ID, new BindRequestProtocolOp(bind.request())));
        LDAPResponse bound = next(in, BIND_ID);
        if (!(bound instanceof BindResult result)) {
            return Answer.error(ResultCode.DECODING_ERROR_INT_VALUE, true);
        }
        Answer bindAnswer = bind.judge(result.getResultCode());
        if (bindAnswer.verdict() != Answer.Verdict.SUCCESS) {
            return bindAnswer;
        }
        send(out, new LDAPMessage(SEARCH_ID, new SearchRequestProtocolOp(read.search())));
        List<SearchResultEntry> entries = new ArrayList<>(1);
        List<SearchResultReference> references = new ArrayList<>(0);
        while (true) {
            LDAPResponse response = next(in, SEARCH_ID);
            switch (response) {
                case SearchResultEntry entry -> entries.add(entry);
                case SearchResultReference reference -> references.add(reference);
                case SearchResult done -> {
                    // The decoded result has no counts (an LDAPConnection counts as it reads): add them.
                    SearchResult counted = new SearchResult(
                            done.getMessageID(),
                            done.getResultCode(),
                            done.getDiagnosticMessage(),
                            done.getMatchedDN(),
                            done.getReferralURLs(),
                            entries,
                            references,
                            entries.size(),
                            references.size(),
                            done.getResponseControls());
                    return read.judge(counted, entries);
                }
                default -> {
                    return Answer.error(ResultCode.DECODING_ERROR_INT_VALUE, true);
                }
            }
        }
    }

    /** The next message for {@code id}; a notice of disconnection (id 0) or the end of the stream ends the login. */
    private static LDAPResponse next(ASN1StreamReader in, int id) throws LDAPException {
        LDAPResponse response = LDAPMessage.readLDAPResponseFrom(in, false);
        if (response == null) {
            throw new LDAPException(ResultCode.SERVER_DOWN, "the server closed the connection");
        }
        if (response.getMessageID() == 0 && response instanceof LDAPResult notice) {
            throw new LDAPException(
                    notice.getResultCode(), "notice of disconnection: " + notice.getDiagnosticMessage());
        }
        if (response.getMessageID() != id) {
            throw new LDAPException(
                    ResultCode.DECODING_ERROR,
                    "expected a response to message " + id + ", got one to " + response.getMessageID());
        }
        return response;
    }

    /** As the SDK's close does; a server that already closed the connection has the answer it earned. */
    private static void unbind(OutputStream out) {
        try {
            send(out, new LDAPMessage(UNBIND_ID, new UnbindRequestProtocolOp()));
        } catch (IOException e) {
            // nothing to tell: the login's answer stands
        }
    }

    private static void send(OutputStream out, LDAPMessage message) throws IOException {
        ASN1Buffer buffer = new ASN1Buffer();
        message.writeTo(buffer);
        buffer.writeTo(out);
        out.flush();
    }
}
