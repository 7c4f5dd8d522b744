/**
 * Larch as a replication consumer (RFC 4533, the consumer side of OpenLDAP's syncrepl): a sync session
 * per configured provider reads what the provider sends ({@link dev.larch.server.replica.ReplicaChange})
 * and hands it, in batches, to a {@link dev.larch.server.replica.ReplicaSink}, which applies it through
 * the server's single writer with the cookie it reaches in the same transaction.
 */
package dev.larch.server.replica;
