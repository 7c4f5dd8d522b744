/**
 * The interface between the connection layer ({@code net}) and the operation handlers: a decoded
 * request in flight ({@link dev.larch.server.protocol.Operation}), the connection it arrived on
 * ({@link dev.larch.server.protocol.Session}) and what serves it
 * ({@link dev.larch.server.protocol.RequestHandler}). {@code net} depends on this package alone,
 * never on the handlers.
 */
package dev.larch.server.protocol;
