package dev.larch.bench.run;

import java.util.function.Consumer;

import com.unboundid.ldap.sdk.LDAPConnection;

/**
 * One request ready to send, carrying what its correct answer looks like.
 *
 * <p>A request never throws for an LDAP failure: a failure is an {@link Answer} with verdict
 * ERROR and the result code. Each request is sent once.
 */
public interface Request {
    /** Index of the mix operation this request belongs to. */
    int operation();

    /** Sends the request, waits for the answer and judges it. */
    Answer execute(LDAPConnection connection);

    /**
     * Whether other requests may be in flight on the same connection while this one is: false for a
     * bind, which changes who the connection is.
     */
    default boolean pipelinable() {
        return true;
    }

    /**
     * Sends the request without waiting; {@code done} gets the judged answer exactly once, on an SDK
     * thread. Needs a connection in asynchronous mode (not synchronous mode).
     */
    void send(LDAPConnection connection, Consumer<Answer> done);
}
