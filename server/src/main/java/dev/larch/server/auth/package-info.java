/**
 * Who a client is and what it may do: simple bind, the administrator's and users' credentials,
 * password schemes, and the access policy the other handlers consult.
 */
package dev.larch.server.auth;
