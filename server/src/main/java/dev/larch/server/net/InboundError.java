package dev.larch.server.net;

import org.apache.directory.api.ldap.model.message.ResultCodeEnum;
import org.apache.directory.api.ldap.model.message.ResultResponse;

/**
 * What the decoders pass to the dispatcher instead of a request when input is bad. The dispatcher
 * alone writes to the client, so every error goes through one place and is told to the request
 * handler's {@link dev.larch.server.protocol.RequestHandler#connectionEvent} (the access log).
 */
sealed interface InboundError {

    /** The stream can no longer be trusted: send a Notice of Disconnection and close. */
    record Disconnect(ResultCodeEnum code, String reason) implements InboundError {
        static Disconnect protocolError(String reason) {
            return new Disconnect(ResultCodeEnum.PROTOCOL_ERROR, reason);
        }
    }

    /** One request was refused but the framing is intact: answer it and keep the connection. */
    record Reply(ResultResponse response) implements InboundError {}
}
