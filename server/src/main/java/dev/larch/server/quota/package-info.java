/**
 * Operation rate quotas ({@code limits.rate-per-identity}, {@code limits.rate-per-address}): a
 * {@link dev.larch.server.protocol.RequestHandler} decorator that answers busy once a bound
 * identity or a client address runs more operations per second than its quota, over token buckets
 * kept in tables of bounded size. Installed only when a quota is set.
 */
package dev.larch.server.quota;
