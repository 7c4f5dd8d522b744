package dev.larch.server.fuzz;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.apache.directory.api.ldap.model.message.AbandonRequest;
import org.apache.directory.api.ldap.model.message.BindRequest;
import org.apache.directory.api.ldap.model.message.Message;
import org.apache.directory.api.ldap.model.message.MessageTypeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;
import org.apache.directory.api.ldap.model.message.ResultResponseRequest;
import org.apache.directory.api.ldap.model.message.UnbindRequest;

/**
 * Sits between the message decoder and the dispatcher and records, in order, what the dispatcher is
 * given: requests that need an answer, the decoder's ready refusals, abandons, binds and unbinds.
 * Passes everything on untouched. One per channel, on its event loop.
 */
final class InboundTap extends ChannelInboundHandlerAdapter {

    /** What the dispatcher received; {@code answerType} null for events that need no answer. */
    record Event(Kind kind, int messageId, MessageTypeEnum answerType, int target) {}

    enum Kind {
        REQUEST,
        BIND,
        REFUSAL,
        ABANDON,
        UNBIND,
        DISCONNECT
    }

    private final List<Event> events = new ArrayList<>();

    List<Event> events() {
        return events;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        events.add(eventOf(message));
        ctx.fireChannelRead(message);
    }

    private static Event eventOf(Object message) {
        return switch (message) {
            case AbandonRequest a -> new Event(Kind.ABANDON, a.getMessageId(), null, a.getAbandoned());
            case UnbindRequest u -> new Event(Kind.UNBIND, u.getMessageId(), null, 0);
            case BindRequest b -> new Event(Kind.BIND, b.getMessageId(), MessageTypeEnum.BIND_RESPONSE, 0);
            case ResultResponseRequest r -> new Event(Kind.REQUEST, r.getMessageId(), answerType(r.getType()), 0);
            case Message m -> new Event(Kind.DISCONNECT, m.getMessageId(), null, 0);
            default -> refusalOrDisconnect(message);
        };
    }

    /**
     * The decoder's errors are package-private records of the server's net package: a reply carries
     * the {@link ResultResponse} the client gets, anything else disconnects.
     */
    private static Event refusalOrDisconnect(Object error) {
        if (error.getClass().isRecord()) {
            for (RecordComponent component : error.getClass().getRecordComponents()) {
                if (ResultResponse.class.isAssignableFrom(component.getType())) {
                    try {
                        component.getAccessor().setAccessible(true);
                        ResultResponse response =
                                (ResultResponse) component.getAccessor().invoke(error);
                        return new Event(Kind.REFUSAL, response.getMessageId(), response.getType(), 0);
                    } catch (ReflectiveOperationException e) {
                        throw new IllegalStateException("cannot read the decoder's refusal", e);
                    }
                }
            }
        }
        return new Event(Kind.DISCONNECT, 0, null, 0);
    }

    static MessageTypeEnum answerType(MessageTypeEnum request) {
        return switch (request) {
            case ADD_REQUEST -> MessageTypeEnum.ADD_RESPONSE;
            case BIND_REQUEST -> MessageTypeEnum.BIND_RESPONSE;
            case COMPARE_REQUEST -> MessageTypeEnum.COMPARE_RESPONSE;
            case DEL_REQUEST -> MessageTypeEnum.DEL_RESPONSE;
            case EXTENDED_REQUEST -> MessageTypeEnum.EXTENDED_RESPONSE;
            case MODIFYDN_REQUEST -> MessageTypeEnum.MODIFYDN_RESPONSE;
            case MODIFY_REQUEST -> MessageTypeEnum.MODIFY_RESPONSE;
            case SEARCH_REQUEST -> MessageTypeEnum.SEARCH_RESULT_DONE;
            default -> throw new IllegalArgumentException("not a request that is answered: " + request);
        };
    }
}
