package dev.larch.server.protocol;

import java.util.List;

import io.netty.util.concurrent.EventExecutor;
import org.apache.directory.api.ldap.model.message.Request;
import org.apache.directory.api.ldap.model.message.Response;
import org.apache.directory.api.ldap.model.message.ResultResponse;

/**
 * One request in flight, as the protocol layer hands it to a {@link RequestHandler}.
 *
 * <p>Contract: the handler calls {@link #complete} exactly once, from any thread, unless the
 * operation was abandoned (then completing is allowed and ignored). {@link #send} and
 * {@link #onWritable} are called only on {@link #executor()}.
 */
public interface Operation {

    /** The decoded request; its message ID is the one every response carries. */
    Request request();

    Session session();

    /** The connection's event loop: where the request arrived and where sends must happen. */
    EventExecutor executor();

    /**
     * Queues an intermediate response (search entry, reference, intermediate response) and
     * flushes it. Returns whether the connection can take more right now; when false the caller
     * should stop producing and resume from {@link #onWritable}.
     */
    boolean send(Response response);

    /**
     * Queues several intermediate responses, in order, and flushes once after the last: what a search
     * produced in one go leaves in as few writes as the socket takes. Returns what {@link #send}
     * would return after the last.
     */
    default boolean sendAll(List<? extends Response> responses) {
        boolean writable = isWritable();
        for (Response response : responses) {
            writable = send(response);
        }
        return writable;
    }

    /** Whether the connection can take more output without growing its buffer past the mark. */
    boolean isWritable();

    /** Runs {@code resume} once on the event loop when the connection is writable again (or closes). */
    void onWritable(Runnable resume);

    /** True once the client abandoned this operation or the connection closed. */
    boolean isAbandoned();

    /** Sends the final response, which ends the operation (see {@link RequestHandler#ended}). */
    void complete(ResultResponse response);

    /**
     * Closes the connection at once, dropping whatever it has not yet written, and so ends every
     * operation on it: for a client that stopped reading while the server would have to buffer
     * without bound for it (a persistent search's notifications). From any thread.
     *
     * @param reason logged with the connection number
     */
    default void closeConnection(String reason) {
        throw new UnsupportedOperationException("this operation cannot close its connection: " + reason);
    }

    /** Number of search entries sent so far (for the access log and size limits). */
    int entriesSent();

    /** Nanosecond timestamp ({@link System#nanoTime()}) when the request was decoded. */
    long startNanos();

    /**
     * Records how a search found its candidates, for decorators that report it (tracing): {@code
     * plan.toString()} explains it, for example {@code eq(uid)}. Costs one field write; nothing renders
     * it unless a decorator asks. From any thread, before {@link #complete}.
     */
    default void recordPlan(Object plan) {}

    /** What {@link #recordPlan} recorded, or null (not a search, a base search, or not recorded). */
    default Object plan() {
        return null;
    }
}
