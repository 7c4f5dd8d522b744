/**
 * Opt-in per-operation tracing with OpenTelemetry ({@code tracing.*}): a {@link
 * dev.larch.server.protocol.RequestHandler} decorator that records one span per operation, and the
 * SDK set-up that exports them over OTLP/HTTP. Nothing here is created while tracing is off.
 */
package dev.larch.server.tracing;
