/**
 * The access log: a {@link dev.larch.server.protocol.RequestHandler} decorator that writes one
 * line per operation and per connection event.
 */
package dev.larch.server.accesslog;
