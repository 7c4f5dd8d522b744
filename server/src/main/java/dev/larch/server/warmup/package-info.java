/**
 * Self-warm-up: before the listener binds its ports, the server runs read-only searches drawn from
 * its own store through its own request pipeline ({@link dev.larch.server.net.LoopbackLoad}), so that
 * the JVM has loaded, profiled and compiled the request path before the first client arrives.
 * {@link dev.larch.server.warmup.WarmUpRequests} picks the requests, {@link
 * dev.larch.server.warmup.SelfWarmUp} runs them and logs what it did.
 */
package dev.larch.server.warmup;
