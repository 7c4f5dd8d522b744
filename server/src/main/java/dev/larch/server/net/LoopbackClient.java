package dev.larch.server.net;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The client end of one {@link LoopbackLoad} connection: a plain JDK socket driven by a thread of its
 * own, not a Netty channel, so that Netty's code in this JVM is run, profiled and compiled by the
 * server's side of the connections alone, as it will be once real clients arrive. Like a client, it
 * binds first (anonymously) and unbinds last: a first bind after the port opened would otherwise meet
 * dispatch code compiled for searches only, and send it back to be compiled again. Keeps up to {@code
 * window} requests from the shared {@link Feed} unanswered, counts what comes back, and stops once the
 * feed is dry and every request it sent was answered, or when its socket is closed. The counters may be
 * read once {@link #run} returned.
 *
 * <p>Bounds: one request and {@value #PREFIX_BYTES} bytes of each response are held at a time; the
 * rest of a response is skipped as it is read.
 */
final class LoopbackClient implements Runnable {
    /** success, timeLimitExceeded, sizeLimitExceeded: a read answered as asked. */
    private static final int SUCCESS = 0;

    private static final int TIME_LIMIT_EXCEEDED = 3;
    private static final int SIZE_LIMIT_EXCEEDED = 4;
    /** BindRequest { version 3, name "", simple "" }: an anonymous bind. */
    private static final byte[] ANONYMOUS_BIND = {0x60, 0x07, 0x02, 0x01, 0x03, 0x04, 0x00, (byte) 0x80, 0x00};
    /** UnbindRequest. */
    private static final byte[] UNBIND = {0x42, 0x00};
    /** Enough of a response for its message ID (at most 4 bytes), operation and result code. */
    static final int PREFIX_BYTES = 32;

    /**
     * The requests, handed out round robin to every connection of one drive until the time is up or
     * the most to send were sent. Thread-safe.
     */
    static final class Feed {
        private final List<byte[]> ops;
        private final long maxSends;
        private final long deadline;
        private final AtomicLong next = new AtomicLong();
        private volatile boolean stopped;

        /**
         * @param ops requests without their envelope ({@link #withoutEnvelope})
         * @param deadline {@link System#nanoTime()} after which nothing more is handed out
         */
        Feed(List<byte[]> ops, long maxSends, long deadline) {
            this.ops = List.copyOf(ops);
            this.maxSends = maxSends;
            this.deadline = deadline;
        }

        /** The next request, or null once the time is up, enough were sent or it was stopped. */
        byte[] next() {
            if (isDry()) {
                return null;
            }
            long n = next.getAndIncrement();
            return n < maxSends ? ops.get((int) (n % ops.size())) : null;
        }

        /** Whether it hands out no more requests. */
        boolean isDry() {
            return stopped || System.nanoTime() - deadline >= 0 || next.get() >= maxSends;
        }

        /** Hands out no more requests from now on. */
        void stop() {
            stopped = true;
        }
    }

    /** What one response was, from its first bytes. */
    enum Response {
        /** A search result entry, reference or intermediate response: more follows. */
        PART,
        /** A final response with an acceptable result code. */
        ANSWERED,
        /** A final response with any other result code. */
        FAILED,
        /** A Notice of Disconnection or bytes that are not an LDAPMessage: the connection is over. */
        OVER
    }

    private final Socket socket;
    private final Feed feed;
    private final int window;
    private final byte[] prefix = new byte[PREFIX_BYTES];
    private int nextId = 1;
    private int unanswered;
    private long sent;
    private long answered;
    private long entries;
    private long failed;

    /**
     * @param socket connected to the server side; this client closes it
     * @param window unanswered requests at most, at least 1
     */
    LoopbackClient(Socket socket, Feed feed, int window) {
        this.socket = socket;
        this.feed = feed;
        this.window = window;
    }

    /**
     * The operation part of an encoded LDAPMessage: the bytes after its messageID (protocolOp and any
     * controls), so that it can be sent again under another message ID.
     *
     * @throws IllegalArgumentException when {@code message} is not one whole LDAPMessage
     */
    static byte[] withoutEnvelope(byte[] message) {
        if (message.length < 2 || (message[0] & 0xFF) != BerTags.SEQUENCE) {
            throw new IllegalArgumentException("not one LDAPMessage");
        }
        int[] at = {1};
        long length = length(message, message.length, at);
        if (length < 0 || at[0] + length != message.length) {
            throw new IllegalArgumentException("not one LDAPMessage");
        }
        if (at[0] >= message.length || (message[at[0]] & 0xFF) != BerTags.INTEGER) {
            throw new IllegalArgumentException("LDAPMessage without a messageID");
        }
        at[0]++;
        long idLength = length(message, message.length, at);
        if (idLength < 0 || at[0] + idLength > message.length) {
            throw new IllegalArgumentException("LDAPMessage without a messageID");
        }
        int opStart = at[0] + (int) idLength;
        if (opStart >= message.length) {
            throw new IllegalArgumentException("LDAPMessage without a protocolOp");
        }
        byte[] op = new byte[message.length - opStart];
        System.arraycopy(message, opStart, op, 0, op.length);
        return op;
    }

    /**
     * Reads a BER length at {@code at[0]} of {@code bytes}, which end at {@code end}, and moves {@code
     * at[0]} past it.
     *
     * @return the length, or -1 when the bytes end first or the length takes more than 4 bytes
     */
    private static long length(byte[] bytes, int end, int[] at) {
        if (at[0] >= end) {
            return -1;
        }
        int first = bytes[at[0]++] & 0xFF;
        if (first < 0x80) {
            return first;
        }
        int n = first & 0x7F;
        if (n == 0 || n > 4 || at[0] + n > end) {
            return -1;
        }
        long length = 0;
        for (int i = 0; i < n; i++) {
            length = (length << 8) | (bytes[at[0]++] & 0xFF);
        }
        return length;
    }

    /**
     * What the LDAPMessage whose first bytes (after the SEQUENCE header) are {@code head[0, n)} is.
     */
    static Response classify(byte[] head, int n) {
        int[] at = {1};
        if (n < 1 || (head[0] & 0xFF) != BerTags.INTEGER) {
            return Response.OVER;
        }
        long idLength = length(head, n, at);
        if (idLength < 1 || idLength > 4 || at[0] + idLength >= n) {
            return Response.OVER;
        }
        if (idLength == 1 && head[at[0]] == 0) {
            return Response.OVER; // message ID 0: a Notice of Disconnection
        }
        at[0] += (int) idLength;
        int op = head[at[0]++] & 0xFF;
        if (op == BerTags.SEARCH_RESULT_ENTRY
                || op == BerTags.SEARCH_RESULT_REFERENCE
                || op == BerTags.INTERMEDIATE_RESPONSE) {
            return Response.PART;
        }
        if (length(head, n, at) < 0 || at[0] + 3 > n || (head[at[0]] & 0xFF) != BerTags.ENUMERATED) {
            return Response.FAILED;
        }
        int code = head[at[0] + 2] & 0xFF;
        boolean acceptable =
                head[at[0] + 1] == 1 && (code == SUCCESS || code == SIZE_LIMIT_EXCEEDED || code == TIME_LIMIT_EXCEEDED);
        return acceptable ? Response.ANSWERED : Response.FAILED;
    }

    @Override
    public void run() {
        try (Socket s = socket) {
            OutputStream out = new BufferedOutputStream(s.getOutputStream());
            InputStream in = new BufferedInputStream(s.getInputStream());
            // As clients do: a bind first (anonymous: the warm-up knows no password), an unbind last.
            send(out, ANONYMOUS_BIND);
            out.flush();
            Response bound = readResponse(in);
            if (bound == Response.OVER) {
                return;
            }
            if (bound != Response.ANSWERED) {
                failed++;
            }
            while (unanswered < window && sendNext(out)) {
                // fills the window
            }
            out.flush();
            while (unanswered > 0) {
                Response r = readResponse(in);
                if (r == Response.OVER) {
                    return;
                }
                if (r == Response.PART) {
                    entries++;
                    continue;
                }
                answered++;
                unanswered--;
                if (r == Response.FAILED) {
                    failed++;
                }
                if (sendNext(out)) {
                    out.flush();
                }
            }
            send(out, UNBIND);
            out.flush();
        } catch (IOException e) {
            // Closed by close(), by the server, or the bytes ended: what is unanswered stays unanswered.
        }
    }

    /** Reads one whole LDAPMessage, keeping its first bytes, and tells what it was. */
    private Response readResponse(InputStream in) throws IOException {
        int tag = in.read();
        if (tag < 0) {
            throw new EOFException();
        }
        if (tag != BerTags.SEQUENCE) {
            return Response.OVER;
        }
        int first = read(in);
        long length = first;
        if (first >= 0x80) {
            int n = first & 0x7F;
            if (n == 0 || n > 4) {
                return Response.OVER;
            }
            length = 0;
            for (int i = 0; i < n; i++) {
                length = (length << 8) | read(in);
            }
        }
        int kept = (int) Math.min(length, prefix.length);
        in.readNBytes(prefix, 0, kept);
        in.skipNBytes(length - kept);
        return classify(prefix, kept);
    }

    private static int read(InputStream in) throws IOException {
        int b = in.read();
        if (b < 0) {
            throw new EOFException();
        }
        return b;
    }

    /** Writes the next request from the feed (not flushed); false when the feed is dry. */
    private boolean sendNext(OutputStream out) throws IOException {
        byte[] op = feed.next();
        if (op == null) {
            return false;
        }
        send(out, op);
        sent++;
        unanswered++;
        return true;
    }

    /** Writes {@code op} as an LDAPMessage under the next message ID (not flushed). */
    private void send(OutputStream out, byte[] op) throws IOException {
        int id = nextId;
        nextId = nextId == Integer.MAX_VALUE ? 1 : nextId + 1;
        int idLength = id < 0x80 ? 1 : id < 0x8000 ? 2 : id < 0x800000 ? 3 : 4;
        int body = 2 + idLength + op.length;
        out.write(BerTags.SEQUENCE);
        writeLength(out, body);
        out.write(BerTags.INTEGER);
        out.write(idLength);
        for (int shift = (idLength - 1) * 8; shift >= 0; shift -= 8) {
            out.write(id >>> shift);
        }
        out.write(op);
    }

    private static void writeLength(OutputStream out, int length) throws IOException {
        if (length < 0x80) {
            out.write(length);
        } else if (length < 0x100) {
            out.write(0x81);
            out.write(length);
        } else if (length < 0x10000) {
            out.write(0x82);
            out.write(length >>> 8);
            out.write(length);
        } else {
            out.write(0x84);
            for (int shift = 24; shift >= 0; shift -= 8) {
                out.write(length >>> shift);
            }
        }
    }

    /** Closes the connection now (from any thread); what is unanswered stays unanswered. */
    void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    long sent() {
        return sent;
    }

    long answered() {
        return answered;
    }

    long entries() {
        return entries;
    }

    long failed() {
        return failed;
    }
}
