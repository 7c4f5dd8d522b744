/**
 * Monitoring: {@link dev.larch.server.monitor.ServerMetrics} counts what the server does (a decorator,
 * {@link dev.larch.server.monitor.MonitoringHandler}, around the request handler), the read-only
 * {@code cn=Monitor} subtree shows it over LDAP as OpenLDAP's back-monitor does, and
 * {@link dev.larch.server.monitor.MetricsEndpoint} serves it to Prometheus over HTTP. Nothing here is
 * ever written to the store.
 */
package dev.larch.server.monitor;
