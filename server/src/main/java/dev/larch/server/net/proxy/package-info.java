/**
 * The PROXY protocol from load balancers ({@code listen.proxy-protocol-from}): which connections must
 * start with a header ({@link ProxyProtocol}), reading it, and the client address it names
 * ({@link ClientAddress}), which the rest of the connection path uses in place of the TCP peer.
 */
package dev.larch.server.net.proxy;
