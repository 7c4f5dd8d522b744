package dev.larch.server.net;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.larch.server.protocol.ConnectionEvent;
import dev.larch.server.protocol.Operation;
import dev.larch.server.protocol.RequestHandler;
import dev.larch.server.protocol.Session;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.EncoderException;
import io.netty.handler.timeout.IdleStateEvent;
import org.apache.directory.api.ldap.model.message.AbandonRequestImpl;
import org.apache.directory.api.ldap.model.message.ExtendedResponse;
import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.message.SearchRequestImpl;
import org.apache.directory.api.ldap.model.message.SearchResultDone;
import org.apache.directory.api.ldap.model.message.SearchResultDoneImpl;
import org.apache.directory.api.ldap.model.message.SearchResultEntryImpl;
import org.apache.directory.api.ldap.model.message.UnbindRequestImpl;
import org.apache.directory.api.ldap.model.name.Dn;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The dispatcher alone on an {@link EmbeddedChannel}: decoded messages in, response objects out. */
class LdapDispatcherTest {

    private final List<Operation> received = new ArrayList<>();
    private InFlightOperations inFlight;
    private EmbeddedChannel channel;

    @BeforeEach
    void open() {
        inFlight = new InFlightOperations();
        channel = new EmbeddedChannel(new LdapDispatcher(received::add, inFlight));
    }

    private static SearchRequestImpl search(int id) {
        SearchRequestImpl search = new SearchRequestImpl();
        search.setMessageId(id);
        search.setBase(Dn.EMPTY_DN);
        return search;
    }

    private static SearchResultDone done(Operation op, ResultCodeEnum code) {
        SearchResultDone done = new SearchResultDoneImpl(op.request().getMessageId());
        done.getLdapResult().setResultCode(code);
        return done;
    }

    private void setWritable(boolean writable) {
        channel.unsafe().outboundBuffer().setUserDefinedWritability(1, writable);
    }

    @Test
    void eachOperationIsAnsweredWithItsOwnMessageId() {
        channel.writeInbound(search(1), search(2));
        assertEquals(2, received.size());
        assertEquals(2, inFlight.count());
        received.get(1).complete(done(received.get(1), ResultCodeEnum.SUCCESS));
        SearchResultDoneImpl wrongId = new SearchResultDoneImpl(99);
        received.get(0).complete(wrongId);
        assertEquals(2, ((SearchResultDone) channel.readOutbound()).getMessageId());
        assertEquals(1, ((SearchResultDone) channel.readOutbound()).getMessageId());
        assertEquals(0, inFlight.count());
        assertFalse(channel.finishAndReleaseAll());
    }

    /** Responses are written with the channel's void promise: one that cannot be encoded still closes the connection. */
    @Test
    void aResponseThatCannotBeEncodedClosesTheConnection() {
        EmbeddedChannel own = new EmbeddedChannel(
                new ChannelOutboundHandlerAdapter() {
                    @Override
                    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
                        throw new EncoderException(
                                "cannot encode " + msg.getClass().getSimpleName());
                    }
                },
                new LdapDispatcher(received::add, inFlight));
        own.writeInbound(search(1), search(2));
        assertTrue(own.isActive());
        received.get(0).send(new SearchResultEntryImpl(1));
        assertFalse(own.isActive(), "closed after the failed entry");
        received.get(1).complete(done(received.get(1), ResultCodeEnum.SUCCESS));
        assertNull(own.readOutbound());
        assertFalse(own.finishAndReleaseAll());
    }

    @Test
    void completingTwiceSendsOnce() {
        channel.writeInbound(search(1));
        Operation op = received.get(0);
        op.complete(done(op, ResultCodeEnum.SUCCESS));
        op.complete(done(op, ResultCodeEnum.OTHER));
        assertInstanceOf(SearchResultDone.class, channel.readOutbound());
        assertNull(channel.readOutbound());
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void abandonSilencesTheOperation() {
        channel.writeInbound(search(1));
        Operation op = received.get(0);
        assertTrue(op.send(new SearchResultEntryImpl(1)));
        channel.writeInbound(new AbandonRequestImpl(1));
        assertTrue(op.isAbandoned());
        assertFalse(op.send(new SearchResultEntryImpl(1)));
        op.complete(done(op, ResultCodeEnum.SUCCESS));
        assertInstanceOf(SearchResultEntryImpl.class, channel.readOutbound());
        assertNull(channel.readOutbound(), "abandon and the abandoned operation get no response");
        assertEquals(1, op.entriesSent());
        assertEquals(0, inFlight.count());
        assertTrue(channel.isActive());
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void abandonOfAnUnknownIdIsIgnored() {
        channel.writeInbound(new AbandonRequestImpl(42));
        assertNull(channel.readOutbound());
        assertTrue(channel.isActive());
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void producersResumeWhenWritableAgain() {
        channel.writeInbound(search(1));
        Operation op = received.get(0);
        AtomicInteger resumed = new AtomicInteger();
        setWritable(false);
        assertFalse(op.isWritable());
        op.onWritable(resumed::incrementAndGet);
        channel.runPendingTasks();
        assertEquals(0, resumed.get());
        setWritable(true);
        channel.runPendingTasks();
        assertEquals(1, resumed.get());
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void closingAbandonsOperationsAndReleasesWaitingProducers() {
        channel.writeInbound(search(1));
        Operation op = received.get(0);
        AtomicInteger resumed = new AtomicInteger();
        setWritable(false);
        op.onWritable(resumed::incrementAndGet);
        channel.close();
        channel.runPendingTasks();
        assertEquals(1, resumed.get());
        assertTrue(op.isAbandoned());
        assertEquals(0, inFlight.count());
        op.complete(done(op, ResultCodeEnum.SUCCESS)); // allowed and ignored
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void anIdleConnectionWhoseOperationsOnlyWaitForTheClientIsClosed() {
        channel.writeInbound(search(1), search(2));
        setWritable(false);
        AtomicInteger resumed = new AtomicInteger();
        received.get(0).onWritable(resumed::incrementAndGet);
        channel.pipeline().fireUserEventTriggered(IdleStateEvent.ALL_IDLE_STATE_EVENT);
        assertTrue(channel.isActive(), "operation 2 is still working");
        received.get(1).onWritable(resumed::incrementAndGet);
        channel.pipeline().fireUserEventTriggered(IdleStateEvent.ALL_IDLE_STATE_EVENT);
        assertFalse(channel.isActive(), "nothing but the client could make progress");
        assertTrue(received.get(0).isAbandoned() && received.get(1).isAbandoned());
        assertEquals(2, resumed.get(), "the waiting producers were released to clean up");
        assertEquals(0, inFlight.count());
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void anIdleConnectionWithAWorkingOperationStaysOpen() {
        channel.writeInbound(search(1));
        channel.pipeline().fireUserEventTriggered(IdleStateEvent.ALL_IDLE_STATE_EVENT);
        assertTrue(channel.isActive());
        received.get(0).complete(done(received.get(0), ResultCodeEnum.SUCCESS));
        assertInstanceOf(SearchResultDone.class, channel.readOutbound());
        channel.pipeline().fireUserEventTriggered(IdleStateEvent.ALL_IDLE_STATE_EVENT);
        assertFalse(channel.isActive(), "idle with nothing outstanding");
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void anOperationThatEndsWhileWaitingIsNeverResumed() {
        channel.writeInbound(search(1));
        setWritable(false);
        Operation op = received.get(0);
        AtomicInteger resumed = new AtomicInteger();
        op.onWritable(resumed::incrementAndGet);
        op.complete(done(op, ResultCodeEnum.TIME_LIMIT_EXCEEDED));
        setWritable(true);
        channel.runPendingTasks();
        assertEquals(0, resumed.get());
        assertInstanceOf(SearchResultDone.class, channel.readOutbound());
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void unbindClosesWithoutAResponse() {
        channel.writeInbound(search(1));
        UnbindRequestImpl unbind = new UnbindRequestImpl();
        unbind.setMessageId(2);
        channel.writeInbound(unbind);
        assertFalse(channel.isActive());
        assertTrue(received.get(0).isAbandoned());
        assertNull(channel.readOutbound());
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void requestsReadWhileTheClientIsNotReadingWaitAndThenRunInOrder() {
        setWritable(false);
        channel.writeInbound(search(1), search(2), search(3));
        assertEquals(0, received.size(), "a request ran while its answer could not be sent");
        setWritable(true);
        channel.runPendingTasks();
        assertEquals(
                List.of(1, 2, 3),
                received.stream().map(op -> op.request().getMessageId()).toList());
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void abandonDropsAWaitingRequestUnanswered() {
        setWritable(false);
        channel.writeInbound(search(1), search(2), new AbandonRequestImpl(1));
        setWritable(true);
        channel.runPendingTasks();
        assertEquals(
                List.of(2),
                received.stream().map(op -> op.request().getMessageId()).toList());
        assertNull(channel.readOutbound());
        assertTrue(channel.isActive());
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void theMessageIdOfAWaitingRequestIsInUse() {
        setWritable(false);
        channel.writeInbound(search(1), search(1));
        assertFalse(channel.isActive());
        assertEquals(0, received.size());
        ExtendedResponse notice = assertInstanceOf(ExtendedResponse.class, channel.readOutbound());
        assertEquals(ResultCodeEnum.PROTOCOL_ERROR, notice.getLdapResult().getResultCode());
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void aRefusalWaitsBehindTheRequestsBeforeIt() {
        setWritable(false);
        SearchResultDoneImpl refusal = new SearchResultDoneImpl(2);
        refusal.getLdapResult().setResultCode(ResultCodeEnum.PROTOCOL_ERROR);
        channel.writeInbound(search(1), new InboundError.Reply(refusal));
        assertNull(channel.readOutbound());
        setWritable(true);
        channel.runPendingTasks();
        Operation first = received.get(0);
        assertEquals(2, ((SearchResultDone) channel.readOutbound()).getMessageId());
        first.complete(done(first, ResultCodeEnum.SUCCESS));
        assertEquals(1, ((SearchResultDone) channel.readOutbound()).getMessageId());
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void aMessageIdStillInUseIsAProtocolError() {
        channel.writeInbound(search(1), search(1));
        ExtendedResponse notice = assertInstanceOf(ExtendedResponse.class, channel.readOutbound());
        assertEquals(ProtocolResponses.NOTICE_OF_DISCONNECTION_OID, notice.getResponseName());
        assertEquals(ResultCodeEnum.PROTOCOL_ERROR, notice.getLdapResult().getResultCode());
        assertFalse(channel.isActive());
        assertEquals(1, received.size());
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void aResponseFromTheClientIsAProtocolError() {
        channel.writeInbound(new SearchResultEntryImpl(3));
        ExtendedResponse notice = assertInstanceOf(ExtendedResponse.class, channel.readOutbound());
        assertEquals(0, notice.getMessageId());
        assertFalse(channel.isActive());
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void whileDrainingNewRequestsAreUnavailable() {
        inFlight.startDraining();
        channel.writeInbound(search(5));
        SearchResultDone done = assertInstanceOf(SearchResultDone.class, channel.readOutbound());
        assertEquals(5, done.getMessageId());
        assertEquals(ResultCodeEnum.UNAVAILABLE, done.getLdapResult().getResultCode());
        assertTrue(received.isEmpty());
        assertFalse(channel.finishAndReleaseAll());
    }

    @Test
    void shutdownNoticeIsUnavailableThenClose() {
        channel.pipeline().fireUserEventTriggered(ShutdownNotice.INSTANCE);
        ExtendedResponse notice = assertInstanceOf(ExtendedResponse.class, channel.readOutbound());
        assertEquals(ResultCodeEnum.UNAVAILABLE, notice.getLdapResult().getResultCode());
        assertFalse(channel.isActive());
        assertFalse(channel.finishAndReleaseAll());
    }

    /** Records every call the dispatcher makes, in order, as the access log decorator sees them. */
    private static final class RecordingHandler implements RequestHandler {
        final List<Operation> operations = new ArrayList<>();
        final List<String> calls = new ArrayList<>();

        @Override
        public void handle(Operation operation) {
            operations.add(operation);
            calls.add("handle " + operation.request().getMessageId());
        }

        @Override
        public void ended(Operation operation, ResultResponse response) {
            calls.add("ended " + operation.request().getMessageId() + " "
                    + (response == null ? "abandoned" : response.getLdapResult().getResultCode()));
        }

        @Override
        public void connectionEvent(Session session, ConnectionEvent event) {
            calls.add(event.getClass().getSimpleName());
        }
    }

    @Test
    void theHandlerIsToldHowEachOperationEndedAndWhatElseHappened() {
        RecordingHandler handler = new RecordingHandler();
        EmbeddedChannel own = new EmbeddedChannel(new LdapDispatcher(handler, new InFlightOperations()));
        own.writeInbound(search(1), search(2));
        Operation first = handler.operations.get(0);
        first.complete(done(first, ResultCodeEnum.SUCCESS));
        AbandonRequestImpl abandon = new AbandonRequestImpl(2);
        abandon.setMessageId(3);
        own.writeInbound(abandon);
        UnbindRequestImpl unbind = new UnbindRequestImpl();
        unbind.setMessageId(4);
        own.writeInbound(unbind);
        own.finishAndReleaseAll();
        assertEquals(
                List.of(
                        "Opened",
                        "handle 1",
                        "handle 2",
                        "ended 1 SUCCESS",
                        "AbandonReceived",
                        "ended 2 abandoned",
                        "UnbindReceived",
                        "Closed"),
                handler.calls);
    }

    @Test
    void requestsRefusedWhileDrainingStillEnd() {
        RecordingHandler handler = new RecordingHandler();
        InFlightOperations draining = new InFlightOperations();
        draining.startDraining();
        EmbeddedChannel own = new EmbeddedChannel(new LdapDispatcher(handler, draining));
        own.writeInbound(search(1));
        own.finishAndReleaseAll();
        assertEquals(List.of("Opened", "ended 1 UNAVAILABLE", "Closed"), handler.calls);
    }
}
