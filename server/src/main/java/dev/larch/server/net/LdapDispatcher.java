package dev.larch.server.net;

import java.io.IOException;
import java.net.SocketAddress;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

import dev.larch.server.net.proxy.ClientAddress;
import dev.larch.server.protocol.ConnectionEvent;
import dev.larch.server.protocol.RequestHandler;
import dev.larch.server.protocol.Session;
import dev.larch.server.protocol.TlsState;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.EncoderException;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.EventExecutor;
import org.apache.directory.api.ldap.extras.extended.cancel.CancelRequest;
import org.apache.directory.api.ldap.model.message.AbandonRequest;
import org.apache.directory.api.ldap.model.message.BindRequest;
import org.apache.directory.api.ldap.model.message.CompareRequest;
import org.apache.directory.api.ldap.model.message.ExtendedResponse;
import org.apache.directory.api.ldap.model.message.Request;
import org.apache.directory.api.ldap.model.message.Response;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.message.ResultResponseRequest;
import org.apache.directory.api.ldap.model.message.SearchRequest;
import org.apache.directory.api.ldap.model.message.UnbindRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last inbound handler of a connection: owns its {@link Session} and its outstanding operations
 * (by message ID), answers Abandon and Unbind itself (RFC 4511 §4.11, §4.3), turns {@link InboundError}s
 * into responses or a Notice of Disconnection, and passes every other request to the
 * {@link RequestHandler}. All writes to the client go through here.
 *
 * <p>Back-pressure, so that a client that sends requests and does not read the answers cannot make the
 * server buffer without bound:
 *
 * <ul>
 *   <li>A request (or a refusal the decoder prepared) is handed on only while the channel is writable;
 *       meanwhile it is held, in order, and handed on when the channel becomes writable again. So the
 *       responses buffered for the client stay within the high water mark plus the responses of one
 *       operation. Abandon and Unbind are never held: they act at once, also on held requests.
 *   <li>Requests held or outstanding are <em>pending</em>; at {@code maxPendingOperations} of them the
 *       connection's {@link ReadGate} shuts and no further request is handed on until one completes. A
 *       client is slowed down, never answered busy: every request it sent is still answered as it would
 *       have been. While shut, the frame decoder still lets Abandon and Unbind through (within a byte
 *       budget), so a client can cancel what holds its connection up.
 *   <li>The same holds for the bytes of the pending requests ({@link PendingBytes}): the gate shuts at
 *       the connection's byte limit (smaller while anonymous), or while the listener's
 *       {@link PendingBytesBudget} is spent and this connection holds something; it opens when enough
 *       is answered, or when the budget is given back by others.
 * </ul>
 *
 * <p>StartTLS (RFC 4511 §4.14.1: the client sends nothing behind the request until its response):
 * once a StartTLS request is read, the gate shuts and nothing more is read until it is answered, and
 * on success nothing is handed on until the handshake completes. A connection with anything behind
 * the request (bytes in the frame decoder, or any message reaching this handler) gets a Notice of
 * Disconnection and is closed: bytes sent in clear are never executed, nor answered inside TLS (the
 * command injection of CVE-2011-0411). The same holds on an LDAPS connection before its handshake.
 *
 * <p>Stateful: one instance per channel. All state is touched on the channel's event loop only.
 */
final class LdapDispatcher extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(LdapDispatcher.class);
    private static final AtomicLong CONNECTION_IDS = new AtomicLong();

    /**
     * Operations of one connection that run at once; further requests wait, held in order, until one
     * ends (as 389-DS's nsslapd-maxthreadsperconn). A client that pipelines a hundred searches would
     * otherwise have them all streaming batches on the event loop at once while its neighbours wait:
     * 2,000 subtree searches on 16 connections kept a well-behaved client waiting 1.6 to 2 s
     * (PausedSearchesIT). Clients that wait for each answer never meet it.
     */
    static final int MAX_RUNNING_PER_CONNECTION = 8;

    private record Waiter(ChannelOperation operation, Runnable resume) {}

    /** Where TLS stands on this connection. */
    private enum TlsStart {
        /** No StartTLS request waits, no handshake runs (or it completed): requests are served. */
        NONE,
        /** A StartTLS request was read and is not yet answered: nothing more is read. */
        REQUESTED,
        /** TLS is installed and its handshake runs: bytes are read for it, no request may arrive. */
        HANDSHAKING
    }

    /** A refusal from the decoders, held like a request until the channel is writable. */
    private record HeldRefusal(ResultResponse response, long startNanos) {}

    private final RequestHandler handler;
    private final InFlightOperations inFlight;
    /** Null: reading is never paused (a dispatcher tested on its own). */
    private final ReadGate gate;

    private final int maxPendingOperations;
    private final StartTls startTls;
    private final PendingBytes pendingBytes;
    /** Runs on any thread when the listener's byte budget is given back; wakes this connection. */
    private final Runnable budgetAvailable = this::budgetAvailable;

    private final Runnable updateGateTask = this::budgetAvailableOnEventLoop;
    /** Tells the size of each request's PDU; null when the pipeline has no message decoder (tests). */
    private LdapMessageDecoder pduSizes;

    private TlsStart tlsStart = TlsStart.NONE;
    /** Operations handed to the request handler and not yet completed or abandoned, by message ID. */
    private final Map<Integer, ChannelOperation> outstanding = new HashMap<>();
    /** {@link ChannelOperation}s and {@link HeldRefusal}s read while the channel was not writable, oldest first. */
    private final ArrayDeque<Object> held = new ArrayDeque<>();

    private ArrayDeque<Waiter> waiters = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    private Session session;
    /** Set once a Notice of Disconnection went out or the channel closed: later input is ignored. */
    private boolean closing;
    /** Set while {@link #handOnHeld} runs: a writability change inside it must not start a second pass. */
    private boolean handingOn;

    /** A dispatcher with its own session, no read gate and the default pending-operation limit. */
    LdapDispatcher(RequestHandler handler, InFlightOperations inFlight) {
        this(handler, inFlight, null, null, ListenerOptions.DEFAULT_MAX_PENDING_OPERATIONS, TlsOptions.NONE);
    }

    /** As the full constructor, with no limit on the bytes pending. */
    LdapDispatcher(
            RequestHandler handler,
            InFlightOperations inFlight,
            Session session,
            ReadGate gate,
            int maxPendingOperations,
            TlsOptions tls) {
        this(handler, inFlight, session, gate, maxPendingOperations, tls, PendingBytes.unlimited());
    }

    /**
     * @param session              the connection's session, or null to create one when added to a channel
     * @param gate                 the connection's read gate, or null never to pause reading
     * @param maxPendingOperations requests held or outstanding at which reading pauses, at least 1
     * @param tls what StartTLS may start; {@link TlsOptions#NONE} answers it unavailable
     * @param pendingBytes this connection's count of the request bytes it holds, and its limits
     */
    LdapDispatcher(
            RequestHandler handler,
            InFlightOperations inFlight,
            Session session,
            ReadGate gate,
            int maxPendingOperations,
            TlsOptions tls,
            PendingBytes pendingBytes) {
        this.startTls = new StartTls(tls);
        this.pendingBytes = pendingBytes;
        this.handler = handler;
        this.inFlight = inFlight;
        this.session = session;
        this.gate = gate;
        this.maxPendingOperations = maxPendingOperations;
    }

    /** A session with the next connection number. */
    static Session newSession(SocketAddress remoteAddress) {
        return new Session(CONNECTION_IDS.incrementAndGet(), remoteAddress);
    }

    Session session() {
        return session;
    }

    Channel channel() {
        return ctx.channel();
    }

    EventExecutor executor() {
        return ctx.executor();
    }

    boolean isWritable() {
        return ctx.channel().isWritable();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext context) {
        this.ctx = context;
        if (session == null) {
            session = newSession(ClientAddress.of(context.channel()));
        }
        pduSizes = context.pipeline().get(LdapMessageDecoder.class);
        if (context.pipeline().get(SslHandler.class) != null) {
            tlsStart = TlsStart.HANDSHAKING; // LDAPS: nothing may come before the handshake completes
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext context) {
        handler.connectionEvent(session, ConnectionEvent.OPENED);
        context.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext context, Object message) {
        long now = System.nanoTime();
        try {
            if (closing) {
                return;
            }
            if (tlsStart != TlsStart.NONE) {
                refuseDataBeforeTls("a message");
                return;
            }
            switch (message) {
                case AbandonRequest abandon -> abandon(abandon);
                case UnbindRequest unbind -> unbind(unbind);
                case ResultResponseRequest request -> accept(request, now);
                case InboundError.Reply reply -> hold(new HeldRefusal(reply.response(), now));
                case InboundError.Disconnect d -> disconnect(d.code(), d.reason());
                default -> disconnect(ResultCodeEnum.PROTOCOL_ERROR, "unexpected message: not a request");
            }
        } finally {
            ReferenceCountUtil.release(message);
        }
    }

    private void accept(ResultResponseRequest request, long startNanos) {
        int id = request.getMessageId();
        if (id == 0 || inUse(id)) {
            disconnect(ResultCodeEnum.PROTOCOL_ERROR, "message ID " + id + " is reserved or already in use");
            return;
        }
        int bytes = pduSizes == null ? 0 : pduSizes.lastPduBytes();
        pendingBytes.take(bytes);
        if (StartTls.isRequest(request)) {
            tlsStart = TlsStart.REQUESTED; // read nothing more until it is answered
        }
        hold(new ChannelOperation(this, request, startNanos, bytes));
    }

    /** Gives back what {@code operation} counted against the pending bytes; once, whatever calls it. */
    private void giveBack(ChannelOperation operation) {
        pendingBytes.giveBack(operation.takePendingBytes());
    }

    /**
     * Closes a connection that sent something behind a StartTLS request before its response, or before
     * its TLS handshake completed: what it sent is never handed on (RFC 4511 §4.14.1).
     */
    private void refuseDataBeforeTls(String what) {
        String when = tlsStart == TlsStart.REQUESTED
                ? "after a StartTLS request, before its response"
                : "before the TLS handshake completed";
        LOG.info("conn={} closing: {} received {} (never executed)", session.id(), what, when);
        if (tlsStart == TlsStart.HANDSHAKING) {
            // A notice would wait inside TLS for a handshake that must not complete: close at once.
            closing = true;
            abandonAll();
            ctx.close();
            return;
        }
        disconnect(ResultCodeEnum.PROTOCOL_ERROR, "data received " + when + "; nothing sent in clear is executed");
    }

    /** Bytes the frame decoder holds (a partial PDU, or whole ones set aside), not yet handed on. */
    private int bytesNotHandedOn() {
        LdapFrameDecoder frames = ctx.pipeline().get(LdapFrameDecoder.class);
        return frames == null ? 0 : frames.bufferedBytes();
    }

    private boolean inUse(int id) {
        return outstanding.containsKey(id) || heldOperation(id) != null;
    }

    private ChannelOperation heldOperation(int id) {
        for (Object item : held) {
            if (item instanceof ChannelOperation operation && operation.messageId() == id) {
                return operation;
            }
        }
        return null;
    }

    /** Queues a request or refusal behind those already held and hands on what the channel can take. */
    private void hold(Object item) {
        held.add(item);
        handOnHeld();
        updateGate();
    }

    /** Hands on held requests and refusals, oldest first, while the channel is writable. */
    private void handOnHeld() {
        if (handingOn) {
            return;
        }
        handingOn = true;
        try {
            while (!closing
                    && !held.isEmpty()
                    && outstanding.size() < MAX_RUNNING_PER_CONNECTION
                    && ctx.channel().isWritable()) {
                switch (held.poll()) {
                    case ChannelOperation operation -> dispatch(operation);
                    case HeldRefusal refusal -> refuse(refusal.response(), refusal.startNanos());
                    default -> throw new IllegalStateException("unexpected held item");
                }
            }
        } finally {
            handingOn = false;
        }
    }

    /** Pauses reading at the pending-operation limit (or when closing), resumes below it. */
    private void updateGate() {
        if (gate == null) {
            return;
        }
        if (closing || tlsStart == TlsStart.REQUESTED) {
            gate.shut();
            gate.stopReading();
        } else if (outstanding.size() + held.size() >= maxPendingOperations
                || pendingBytes.isFull(session.isAnonymous(), budgetAvailable)) {
            gate.shut();
        } else {
            gate.open();
        }
    }

    private void dispatch(ChannelOperation operation) {
        ResultResponseRequest request = (ResultResponseRequest) operation.request();
        int id = operation.messageId();
        if (inFlight.isDraining()) {
            operation.complete(
                    ProtocolResponses.responseFor(request, ResultCodeEnum.UNAVAILABLE, "server is shutting down"));
            return;
        }
        if (StartTls.isRequest(request)) {
            int behind = bytesNotHandedOn();
            if (behind > 0 || !held.isEmpty()) {
                giveBack(operation);
                refuseDataBeforeTls(behind + " byte(s)");
                return;
            }
            outstanding.put(id, operation);
            inFlight.started();
            // Answered here, not by the request handler: it changes the pipeline under the response.
            ExtendedResponse answer = startTls.answer(id, ctx.pipeline(), outstanding.size() - 1);
            tlsStart = answer.getLdapResult().getResultCode() == ResultCodeEnum.SUCCESS
                    ? TlsStart.HANDSHAKING
                    : TlsStart.NONE;
            operation.complete(answer);
            return;
        }
        if (request instanceof CancelRequest cancel) {
            outstanding.put(id, operation);
            inFlight.started();
            // Answered here: it ends another operation of this connection, which only this layer sees.
            operation.complete(cancel(cancel));
            return;
        }
        if (request instanceof BindRequest) {
            // RFC 4511 §4.2.1: before processing a bind, outstanding operations complete or are abandoned.
            abandonOutstanding();
        }
        outstanding.put(id, operation);
        inFlight.started();
        try {
            handler.handle(operation);
        } catch (RuntimeException e) {
            LOG.error("conn={} op={} request handler failed", session.id(), id, e);
            if (!operation.isCompleted()) {
                operation.complete(ProtocolResponses.responseFor(request, ResultCodeEnum.OTHER, "internal error"));
            }
        }
    }

    /** Ends {@code operation}: sends its final response unless it was abandoned. On the event loop. */
    void finish(ChannelOperation operation, ResultResponse response) {
        giveBack(operation);
        if (outstanding.remove(operation.messageId(), operation)) {
            inFlight.ended();
            updateGate();
        }
        if (!waiters.isEmpty()) {
            // An operation that ended while waiting (a paused search that timed out) resumes never.
            waiters.removeIf(w -> w.operation() == operation);
        }
        if (operation.isAbandoned() || closing) {
            return;
        }
        if (response.getMessageId() != operation.messageId()) {
            response.setMessageId(operation.messageId());
        }
        send(response);
        handler.ended(operation, response);
        handOnHeld();
        updateGate();
    }

    /** Writes an intermediate response of {@code operation}; returns whether more may follow now. */
    boolean write(ChannelOperation operation, Response response) {
        if (closing) {
            return false;
        }
        if (response.getMessageId() != operation.messageId()) {
            response.setMessageId(operation.messageId());
        }
        send(response);
        return ctx.channel().isWritable();
    }

    /** Writes intermediate responses of {@code operation} and flushes once; returns whether more may follow now. */
    boolean writeAll(ChannelOperation operation, List<? extends Response> responses) {
        if (closing) {
            return false;
        }
        for (Response response : responses) {
            if (response.getMessageId() != operation.messageId()) {
                response.setMessageId(operation.messageId());
            }
            ctx.write(response, ctx.voidPromise());
        }
        ctx.flush();
        return ctx.channel().isWritable();
    }

    void whenWritable(ChannelOperation operation, Runnable resume) {
        if (inFlight.isDraining() && !operation.isAbandoned()) {
            // The server is stopping: it does not wait for a client that does not read.
            abandon(operation);
        }
        if (closing || operation.isAbandoned() || ctx.channel().isWritable()) {
            ctx.executor().execute(() -> run(resume));
        } else {
            waiters.add(new Waiter(operation, resume));
        }
    }

    /**
     * Cancel (RFC 3909): the target ends at once with {@code canceled}, before this answer. Binds,
     * StartTLS and Cancel cannot be canceled, nor writes: once handed to the writer a write is applied
     * or fails, and its client learns which.
     */
    private ResultResponse cancel(CancelRequest request) {
        ChannelOperation target = outstanding.get(request.getCancelId());
        if (target == null || target == outstanding.get(request.getMessageId())) {
            return ProtocolResponses.responseFor(
                    request, ResultCodeEnum.NO_SUCH_OPERATION, "no operation " + request.getCancelId() + " to cancel");
        }
        Request cancelled = target.request();
        boolean cancellable = cancelled instanceof SearchRequest || cancelled instanceof CompareRequest;
        if (!cancellable) {
            return ProtocolResponses.responseFor(
                    request,
                    ResultCodeEnum.CANNOT_CANCEL,
                    "operation " + request.getCancelId() + " cannot be canceled: only searches and compares can");
        }
        outstanding.remove(target.messageId(), target);
        inFlight.ended();
        giveBack(target);
        ResultResponse canceled = ProtocolResponses.responseFor(
                (ResultResponseRequest) cancelled,
                ResultCodeEnum.CANCELED,
                "canceled by Cancel request " + request.getMessageId());
        send(canceled);
        handler.ended(target, canceled);
        // Marked abandoned only now: its handler stops, and whatever it still sends is dropped.
        target.markAbandoned();
        releaseWaiters(target);
        return ProtocolResponses.responseFor(request, ResultCodeEnum.SUCCESS, null);
    }

    private void abandon(AbandonRequest request) {
        handler.connectionEvent(session, new ConnectionEvent.AbandonReceived(request));
        ChannelOperation target = outstanding.get(request.getAbandoned());
        if (target != null) {
            abandon(target);
        } else {
            ChannelOperation waiting = heldOperation(request.getAbandoned());
            if (waiting != null) {
                // Never handed to the request handler: it just disappears, unanswered (RFC 4511 §4.11).
                held.remove(waiting);
                giveBack(waiting);
                waiting.markAbandoned();
            }
        }
        handOnHeld();
        updateGate();
    }

    private void abandon(ChannelOperation operation) {
        if (outstanding.remove(operation.messageId(), operation)) {
            inFlight.ended();
        }
        giveBack(operation);
        operation.markAbandoned();
        handler.ended(operation, null);
        releaseWaiters(operation);
    }

    /** Abandons every outstanding operation and drops every held request: the connection is ending. */
    private void abandonAll() {
        for (Object item : held) {
            if (item instanceof ChannelOperation operation) {
                giveBack(operation);
            }
        }
        held.clear();
        abandonOutstanding();
    }

    /** From any thread: the listener's byte budget is no longer spent; look again on the event loop. */
    private void budgetAvailable() {
        try {
            ctx.executor().execute(updateGateTask);
        } catch (RejectedExecutionException e) {
            // the event loop is shutting down: nothing is read any more
        }
    }

    private void budgetAvailableOnEventLoop() {
        pendingBytes.woken();
        if (!closing) {
            updateGate();
        }
    }

    private void abandonOutstanding() {
        for (ChannelOperation operation : new ArrayList<>(outstanding.values())) {
            abandon(operation);
        }
    }

    private void unbind(UnbindRequest request) {
        handler.connectionEvent(session, new ConnectionEvent.UnbindReceived(request));
        closing = true;
        abandonAll();
        ctx.close();
    }

    private void refuse(ResultResponse response, long startNanos) {
        send(response);
        handler.connectionEvent(session, new ConnectionEvent.Refused(response, startNanos));
    }

    /** Sends a Notice of Disconnection (RFC 4511 §4.4.1) and closes once it is written. */
    private void disconnect(ResultCodeEnum code, String reason) {
        if (closing) {
            return;
        }
        closing = true;
        ExtendedResponse notice = ProtocolResponses.noticeOfDisconnection(code, reason);
        handler.connectionEvent(session, new ConnectionEvent.Disconnected(notice));
        abandonAll();
        ctx.writeAndFlush(notice).addListener(ChannelFutureListener.CLOSE);
    }

    /**
     * Closes at once, dropping output not yet written; no Notice of Disconnection, which a client that
     * does not read would never see. On the event loop.
     */
    void closeNow(String reason) {
        if (closing) {
            return;
        }
        LOG.info("conn={} closing: {}", session.id(), reason);
        closing = true;
        ctx.close();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext context) {
        if (context.channel().isWritable()) {
            runWaiters();
            handOnHeld();
            updateGate();
        }
        context.fireChannelWritabilityChanged();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext context, Object event) {
        if (event instanceof SslHandshakeCompletionEvent handshake) {
            handshakeCompleted(context, handshake);
            context.fireUserEventTriggered(event);
            return;
        }
        if (event instanceof IdleStateEvent) {
            if (!closing && onlyWaitingForTheClient()) {
                LOG.debug(
                        "conn={} idle timeout ({} operations waiting for the client to read)",
                        session.id(),
                        waiters.size());
                closing = true;
                context.close();
            }
        } else if (event == ShutdownNotice.DRAINING) {
            abandonWaiting();
        } else if (event == ShutdownNotice.INSTANCE) {
            disconnect(ResultCodeEnum.UNAVAILABLE, "server is shutting down");
        } else {
            context.fireUserEventTriggered(event);
        }
    }

    /**
     * Records a completed handshake in the session and tells the handler (the access log); a failed or
     * timed-out one is logged in one line and the connection closed (SslHandler closes it too).
     */
    private void handshakeCompleted(ChannelHandlerContext context, SslHandshakeCompletionEvent handshake) {
        if (!handshake.isSuccess()) {
            Throwable cause = handshake.cause();
            LOG.info(
                    "conn={} TLS handshake with {} failed: {}",
                    session.id(),
                    session.remoteAddress(),
                    cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage());
            closing = true;
            context.close();
            return;
        }
        tlsStart = TlsStart.NONE;
        SSLSession tls = context.pipeline().get(SslHandler.class).engine().getSession();
        TlsState state = new TlsState(tls.getProtocol(), tls.getCipherSuite(), clientCertificates(tls));
        session.secured(state);
        handler.connectionEvent(session, new ConnectionEvent.TlsEstablished(state));
    }

    private static List<X509Certificate> clientCertificates(SSLSession tls) {
        try {
            List<X509Certificate> chain = new ArrayList<>();
            for (Certificate certificate : tls.getPeerCertificates()) {
                if (certificate instanceof X509Certificate x509) {
                    chain.add(x509);
                }
            }
            return chain;
        } catch (SSLPeerUnverifiedException e) {
            return List.of(); // the client sent no certificate
        }
    }

    /**
     * Whether nothing is making progress but the client: every outstanding operation waits for the
     * client to read (a paused search). An operation that is working, even one that has sent nothing
     * yet, keeps the connection open.
     */
    private boolean onlyWaitingForTheClient() {
        if (outstanding.size() > waiters.size()) {
            return false;
        }
        Set<ChannelOperation> waiting = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Waiter waiter : waiters) {
            waiting.add(waiter.operation());
        }
        return waiting.containsAll(outstanding.values());
    }

    @Override
    public void channelInactive(ChannelHandlerContext context) {
        closing = true;
        abandonAll();
        runWaiters();
        handler.connectionEvent(session, ConnectionEvent.CLOSED);
        context.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
        if (cause instanceof IOException || isTlsFailure(cause)) {
            // TLS failures during the handshake were logged from its completion event; a response
            // written to a closed channel fails with ClosedChannelException.
            LOG.debug("conn={} I/O error: {}", session.id(), cause.toString());
        } else if (cause instanceof EncoderException) {
            LOG.error("conn={} could not encode a response; closing", session.id(), cause);
        } else {
            LOG.warn("conn={} unexpected error; closing", session.id(), cause);
        }
        closing = true;
        context.close();
    }

    private static boolean isTlsFailure(Throwable cause) {
        return cause instanceof DecoderException && cause.getCause() instanceof SSLException;
    }

    /**
     * Writes and flushes {@code response} with the channel's void promise: a write makes no promise of
     * its own (about 45 bytes a response; nothing in the pipeline turns it back into one, see
     * {@link IdleTimeout}), and a failure to encode or write it reaches {@link #exceptionCaught}, which
     * closes the connection.
     */
    private void send(Response response) {
        ctx.writeAndFlush(response, ctx.voidPromise());
    }

    /** Abandons every operation waiting for the client to read; the server is stopping. */
    private void abandonWaiting() {
        if (waiters.isEmpty()) {
            return;
        }
        Set<ChannelOperation> waiting = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Waiter waiter : waiters) {
            waiting.add(waiter.operation());
        }
        for (ChannelOperation operation : waiting) {
            abandon(operation);
        }
        updateGate();
    }

    private void releaseWaiters(ChannelOperation operation) {
        List<Waiter> released = new ArrayList<>();
        waiters.removeIf(w -> w.operation() == operation && released.add(w));
        released.forEach(w -> run(w.resume()));
    }

    private void runWaiters() {
        if (waiters.isEmpty()) {
            return;
        }
        ArrayDeque<Waiter> ready = waiters;
        waiters = new ArrayDeque<>();
        for (Waiter waiter : ready) {
            run(waiter.resume());
        }
    }

    private void run(Runnable resume) {
        try {
            resume.run();
        } catch (RuntimeException e) {
            LOG.error("conn={} writability callback failed", session.id(), e);
        }
    }
}
